// Renderer suites drive a real core (SQLite, scrypt PIN checks) on 2-core machines that may be busy:
// findBy…/waitFor wait for a condition, and their ceiling must cover that work on a loaded machine
// (a wrong PIN checks every staff hash). A passing wait ends as soon as its condition holds, so the
// ceiling costs nothing; Testing Library's 1 s default failed sign-ins under load (issue 21).
if (typeof document !== 'undefined') {
  const { configure } = await import('@testing-library/react');
  configure({ asyncUtilTimeout: 10_000 });
}
