// The automatic gratuity's tests: 18% for parties of 8 or more, untaxed, sales tax 10% on the food; the
// cores and receipt printers a test starts are stopped after it.
import { afterEach } from 'vitest';
import { FakePrinter } from '../printing/fake-printer';
import { startTestCore, type TestCore } from './fixtures';

export const GRATUITY_CONFIG = { tax: { rates: 'standard:Sales tax:10' }, checkout: { autoGratuityGuests: 8, autoGratuityPercent: 18 } } as never;

/** Registers the teardown; `start` is startTestCore, `printer` a receipt printer, both stopped after each test. */
export function gratuityTills(): { start: typeof startTestCore; printer: () => Promise<FakePrinter> } {
  const cores: TestCore[] = [];
  const printers: FakePrinter[] = [];
  afterEach(async () => {
    for (const till of cores.splice(0)) await till.core.shutdown();
    for (const printer of printers.splice(0)) await printer.stop();
  });
  return {
    start: async (...args) => {
      const till = await startTestCore(...args);
      cores.push(till);
      return till;
    },
    printer: async () => {
      const printer = await FakePrinter.start();
      printers.push(printer);
      return printer;
    },
  };
}
