// The architecture's import rules (see ARCHITECTURE.md). `npm run lint` fails on any violation.
const component = (name) => `^${name}/`;
const escapeRegExp = (text) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

// The only npm packages renderer/ may import (any subpath too: react/jsx-runtime, react-dom/client).
// Whatever the renderer imports is bundled and shipped to the page, which runs under a strict CSP
// with no Node: a new entry needs a review (is it browser code, does it eval, what does it weigh?).
//   react      every component and hook; the JSX runtime (react/jsx-runtime) that tsc and vite insert
//   react-dom  main.tsx (react-dom/client: createRoot)
//   zod        zod-jitless.ts (turns off zod's `new Function` parsers before any bridge schema is built)
const RENDERER_PACKAGES = ['react', 'react-dom', 'zod'];
// A package's own files, or its DefinitelyTyped types for a type-only import.
const rendererPackagePaths = `(^|/)node_modules/(@types/)?(${RENDERER_PACKAGES.map(escapeRegExp).join('|')})/`;

/** @type {import('dependency-cruiser').IConfiguration} */
module.exports = {
  forbidden: [
    {
      name: 'renderer-only-bridge',
      comment: 'The renderer sees the core only through the bridge contract: of the repo, it imports only renderer/ and bridge/.',
      severity: 'error',
      from: { path: component('renderer') },
      to: { dependencyTypes: ['local'], pathNot: '^(renderer|bridge)/' },
    },
    {
      name: 'renderer-allowed-packages',
      comment: `The renderer and bridge/ (bundled into the page) import only the npm packages in RENDERER_PACKAGES (${RENDERER_PACKAGES.join(', ')}): whatever it imports is shipped to the page.`,
      severity: 'error',
      from: { path: '^(renderer|bridge)/' }, // bridge/ is bundled into the page too
      // Every package outside the allow-list, and anything that does not resolve; Node built-ins are renderer-no-node's.
      to: { dependencyTypesNot: ['local', 'core'], pathNot: rendererPackagePaths },
    },
    {
      name: 'renderer-no-node',
      comment: 'The renderer runs in a sandboxed page: no Node built-ins.',
      severity: 'error',
      from: { path: '^(renderer|bridge)/' },
      to: { dependencyTypes: ['core'] },
    },
    {
      name: 'only-shell-imports-electron',
      comment: 'Only the Electron shell (main/electron, main/preload) may import electron or its updater.',
      severity: 'error',
      from: { pathNot: '^main/(electron|preload)/' },
      to: { path: '(^|/)node_modules/(electron|electron-updater)/' },
    },
    {
      name: 'contracts-are-leaves',
      comment: 'common/, api/ and bridge/ are contracts: they import only common/.',
      severity: 'error',
      from: { path: '^(common|api|bridge)/' },
      to: { path: '^(api|bridge|store|sync|sandbox|main|renderer|printing)/', pathNot: '^$1/' },
    },
    {
      name: 'store-below-sync-and-main',
      comment: 'The store is used by sync, printing and main; it knows none of them.',
      severity: 'error',
      from: { path: component('store') },
      to: { path: '^(bridge|sync|sandbox|main|renderer|printing)/' },
    },
    {
      name: 'printing-on-store-and-common',
      comment: 'printing/ (documents, ESC/POS, the print queue worker) uses only store/ and common/: it renders its own documents, never bridge/ types; main/core maps them.',
      severity: 'error',
      from: { path: component('printing') },
      to: { path: '^(api|bridge|sync|sandbox|main|renderer)/' },
    },
    {
      name: 'sync-knows-no-app',
      comment: 'sync/ knows nothing of main/ or renderer/ (nor the sandbox it talks to over HTTP).',
      severity: 'error',
      from: { path: component('sync') },
      to: { path: '^(bridge|sandbox|main|renderer)/' },
    },
    {
      name: 'sandbox-stands-alone',
      comment: 'The sandbox is the cloud: it shares only the wire contract with the terminal.',
      severity: 'error',
      from: { path: component('sandbox') },
      to: { path: '^(bridge|store|sync|main|renderer)/' },
    },
    {
      name: 'core-below-shells',
      comment: 'Cashier use cases (main/core) know nothing of the shells that host them.',
      severity: 'error',
      from: { path: '^main/core/' },
      to: { path: '^(main/(host|electron|preload)|renderer)/' },
    },
    {
      name: 'shells-apart',
      comment: 'The browser-mode host and the Electron shell are siblings over the same core.',
      severity: 'error',
      from: { path: '^main/(host|electron|preload)/' },
      to: { path: '^renderer/' },
    },
    {
      name: 'preload-is-tiny',
      comment: 'The preload script may import only electron and the bridge contract.',
      severity: 'error',
      from: { path: '^main/preload/' },
      to: { path: '^(common|api|store|sync|sandbox|main/(core|host|electron))/' },
    },
    {
      name: 'tables-room-through-its-deps',
      comment:
        'The tables room (main/core/tables, docs/tables.md) reads checks, prints and tells the day only through what main/core/index.ts hands it: it imports no other part of the core (it never writes an order), nor sync/, printing/ or api/.',
      severity: 'error',
      from: { path: '^main/core/tables/' },
      to: { path: '^(sync|printing|api)/|^main/core/(?!tables/|errors\\.ts$|dispatch\\.ts$|staff/desk\\.ts$)' },
    },
    {
      name: 'tables-room-opened-by-the-core',
      comment: 'Only the core\'s composition (main/core/index.ts) opens the tables room; the rest of the core does not reach into it.',
      severity: 'error',
      from: { path: '^main/(?!core/(tables/|index\\.ts$))' },
      to: { path: '^main/core/tables/' },
    },
    {
      name: 'tables-bridge-stands-alone',
      comment: 'The tables room\'s bridge shapes (bridge/tables) import nothing else of the bridge but its smallest shapes (bridge/primitives.ts): bridge/contract.ts merges them in.',
      severity: 'error',
      from: { path: '^bridge/tables/' },
      to: { path: '^bridge/(?!tables/|primitives\\.ts$)' },
    },
    {
      name: 'store-mode-bridge-stands-alone',
      comment: "The store-mode room's bridge shapes (bridge/store-mode) import nothing else of the bridge but its smallest shapes (bridge/primitives.ts): bridge/contract.ts merges them in.",
      severity: 'error',
      from: { path: '^bridge/store-mode/' },
      to: { path: '^bridge/(?!store-mode/|primitives\\.ts$)' },
    },
    {
      name: 'store-mode-on-common',
      comment:
        'The store-mode room (store-mode/, docs/store-mode.md: trust and the log feed) uses only common/ and npm packages: main/core/store-link.ts hands it the store (its LogSource and FeedSink interfaces); it never imports main/, the renderer, the bridge, the store, sync/ or the sandbox.',
      severity: 'error',
      from: { path: component('store-mode') },
      to: { path: '^(api|bridge|store|sync|sandbox|main|renderer|printing)/' },
    },
    {
      name: 'store-mode-opened-by-main',
      comment: 'Only main/ (its composition and configuration) opens the store-mode room.',
      severity: 'error',
      from: { path: '^(common|api|bridge|store|sync|sandbox|renderer|printing)/' },
      to: { path: component('store-mode') },
    },
    {
      name: 'kitchen-room-through-its-deps',
      comment:
        'The kitchen room (main/core/kitchen, docs/kitchen-display.md) reads the store, the print routing and the configuration, and reaches the rest of the core only through what main/core/index.ts hands it and store mode\'s forwarding (a bump is a change sent to the order\'s till): no other part of the core, nor sync/ or api/.',
      severity: 'error',
      from: { path: '^main/core/kitchen/' },
      to: { path: '^(sync|api)/|^main/core/(?!kitchen/|errors\\.ts$|dispatch\\.ts$|staff/desk\\.ts$|store-link\\.ts$|store-mode/forwarding\\.ts$)' },
    },
    {
      name: 'kitchen-room-opened-by-the-core',
      comment: 'Only the core\'s composition (main/core/index.ts) opens the kitchen room; the rest of the core does not reach into it.',
      severity: 'error',
      from: { path: '^main/(?!core/(kitchen/|index\\.ts$))' },
      to: { path: '^main/core/kitchen/' },
    },
    {
      name: 'kitchen-bridge-stands-alone',
      comment: 'The kitchen room\'s bridge shapes (bridge/kitchen) import nothing else of the bridge but its smallest shapes (bridge/primitives.ts): bridge/contract.ts merges them in.',
      severity: 'error',
      from: { path: '^bridge/kitchen/' },
      to: { path: '^bridge/(?!kitchen/|primitives\\.ts$)' },
    },
    {
      name: 'bridge-primitives-a-leaf',
      comment:
        "The bridge's shared primitives (bridge/primitives.ts: ids, times, PINs, totals, the command helper) import nothing else of the bridge but the money caps: bridge/contract.ts and the rooms' contracts build on them, so they never import back.",
      severity: 'error',
      from: { path: '^bridge/primitives\\.ts$' },
      to: { path: '^bridge/(?!money\\.ts$)' },
    },
    {
      name: 'printing-bridge-on-primitives',
      comment: "The printing room's bridge shapes (bridge/printing) import nothing else of the bridge but its primitives: bridge/contract.ts merges them in.",
      severity: 'error',
      from: { path: '^bridge/printing/' },
      to: { path: '^bridge/(?!printing/|primitives\\.ts$)' },
    },
    {
      name: 'staff-bridge-on-primitives',
      comment:
        "The staff room's bridge shapes (bridge/staff: its contract, the roles and the drawer's count) import nothing else of the bridge but its primitives and the money caps: bridge/contract.ts merges them in.",
      severity: 'error',
      from: { path: '^bridge/staff/' },
      to: { path: '^bridge/(?!staff/|primitives\\.ts$|money\\.ts$)' },
    },
    {
      name: 'reports-bridge-through-its-deps',
      comment:
        "The end-of-day report's bridge shapes (bridge/reports) import nothing else of the bridge but its primitives and the rooms the report is made of: the staff room's contract (people, shifts) and the printing room's (printing it answers the printers' status). bridge/contract.ts merges them in.",
      severity: 'error',
      from: { path: '^bridge/reports/' },
      to: { path: '^bridge/(?!reports/|primitives\\.ts$|staff/contract\\.ts$|printing/contract\\.ts$)' },
    },
    {
      name: 'kitchen-screen-its-own-app',
      comment:
        'The kitchen display\'s screen (renderer/kitchen) is its own app, chosen by renderer/main.tsx: it uses the renderer\'s lib/ and store-mode/ but none of the register\'s screens and components, and nothing of the register reaches into it.',
      severity: 'error',
      from: { path: '^renderer/kitchen/' },
      to: { path: '^renderer/(?!kitchen/|lib/|store-mode/|zod-jitless\\.ts$)' },
    },
    {
      name: 'kitchen-screen-opened-by-main',
      comment: 'Only renderer/main.tsx opens the kitchen display\'s app.',
      severity: 'error',
      from: { path: '^renderer/(?!kitchen/|main\\.tsx$)' },
      to: { path: '^renderer/kitchen/' },
    },
    {
      name: 'no-production-import-of-tests',
      severity: 'error',
      from: { pathNot: '^test/' },
      to: { path: '^test/' },
    },
    {
      name: 'no-circular',
      severity: 'error',
      from: {},
      to: { circular: true },
    },
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    // Only the build outputs at the root: `(^|/)dist/` also dropped every package whose entry is under
    // its own dist/ (kysely, ...), and with it every rule about importing that package.
    exclude: { path: '^(dist|release)/' },
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.json' },
    enhancedResolveOptions: {
      extensions: ['.ts', '.tsx', '.js', '.json'],
      exportsFields: ['exports'],
      conditionNames: ['import', 'require', 'node', 'default', 'types'],
    },
  },
};
