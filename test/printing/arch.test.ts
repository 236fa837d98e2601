// The printing room's place in the architecture (.dependency-cruiser.cjs): printing/ imports store/
// and common/ only; the store and the contracts never import printing/. Cruises small fixture
// trees with the real config (test/arch/cruise.ts), as test/arch/lint-rules.test.ts does for the other rules.
import { afterAll, describe, expect, it } from 'vitest';
import { removeCruisedTrees, violationsFor } from '../arch/cruise';

function violations(files: Record<string, string>): string[] {
  return violationsFor(files, 'arch-printing-')
    .map((v) => `${v.rule.name}: ${v.from} -> ${v.to}`)
    .sort();
}

afterAll(removeCruisedTrees);

describe('printing in the architecture', () => {
  it('lets printing/ use store/ and common/, and main/ use printing/', () => {
    expect(
      violations({
        'common/clock.ts': 'export const c = 1;\n',
        'store/queue.ts': "import { c } from '../common/clock';\nexport const q = c;\n",
        'printing/worker.ts': "import { q } from '../store/queue';\nimport { c } from '../common/clock';\nimport { createConnection } from 'node:net';\nexport const w = [q, c, createConnection];\n",
        'main/core/print.ts': "import { w } from '../../printing/worker';\nexport const p = w;\n",
      }),
    ).toEqual([]);
  });

  it('refuses printing/ importing bridge/ or main/, and the store or a contract importing printing/', () => {
    expect(
      violations({
        'bridge/contract.ts': "import { w } from '../printing/worker';\nexport const b = w;\n",
        'main/core/orders.ts': 'export const o = 1;\n',
        'store/queue.ts': "import { w } from '../printing/worker';\nexport const q = w;\n",
        'printing/worker.ts': "import { o } from '../main/core/orders';\nexport const w = o;\n",
        'printing/docs.ts': "import { b } from '../bridge/contract';\nexport const d = b;\n",
      }),
    ).toEqual(
      expect.arrayContaining([
        'contracts-are-leaves: bridge/contract.ts -> printing/worker.ts',
        'printing-on-store-and-common: printing/docs.ts -> bridge/contract.ts',
        'printing-on-store-and-common: printing/worker.ts -> main/core/orders.ts',
        'store-below-sync-and-main: store/queue.ts -> printing/worker.ts',
      ]),
    );
  });
});
