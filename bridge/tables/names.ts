// How a table is found by its name, wherever it is typed: case and runs of spaces do not count
// ("Patio  4" is patio 4), and a leading "T" or "table" may be typed before a name ("t12", "Table 12").
// store/floor.ts keys names the same way for its unique index (test/bridge/table-names.test.ts).

export function tableKey(name: string): string {
  return name.trim().replace(/\s+/g, ' ').toLowerCase();
}

/** The keys a typed search may mean: itself, and without a leading "t" or "table". */
export function tableQueryKeys(typed: string): string[] {
  const key = tableKey(typed);
  if (key === '') return [];
  const bare = key.replace(/^(table|t)\s?(?=\S)/, '');
  return bare === key ? [key] : [key, bare];
}
