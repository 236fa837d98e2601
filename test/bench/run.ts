// `npm run bench [-- name-filter]`: runs every suite in test/bench/suites and prints one table.
import { readdirSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { renderTable, type BenchRow, type BenchSuite } from './harness';

const suitesDir = join(dirname(fileURLToPath(import.meta.url)), 'suites');
const filter = process.argv[2];

const files = readdirSync(suitesDir).filter((f) => f.endsWith('.bench.ts')).sort();
const rows: (BenchRow & { suite: string })[] = [];
for (const file of files) {
  const suite = (await import(pathToFileURL(join(suitesDir, file)).href)).default as BenchSuite;
  if (filter && !suite.name.includes(filter) && !file.includes(filter)) continue;
  process.stderr.write(`running ${suite.name}...\n`);
  for (const r of await suite.run()) rows.push({ ...r, suite: suite.name });
}
console.log(renderTable(rows));
process.exitCode = rows.every((r) => r.ok) ? 0 : 1;
