// A real core with two fake kitchen printers on TCP, kitchen (mains) and bar (drinks), for the tests of
// kitchen paper; everything started is stopped after each test.
import { afterEach } from 'vitest';
import { startTestCore, type TestCore } from '../core/fixtures';
import { normalizedText } from './escpos-decode';
import { FakePrinter } from './fake-printer';

export type KitchenAndBar = { kitchen: FakePrinter; bar: FakePrinter; t: TestCore };

/** Call at the top of a test file: it answers a function that starts the core and its two printers. */
export function kitchenAndBarForEachTest(): () => Promise<KitchenAndBar> {
  let t: TestCore | undefined;
  const printers: FakePrinter[] = [];
  afterEach(async () => {
    await t?.core.shutdown();
    t = undefined;
    for (const printer of printers.splice(0)) await printer.stop();
  });
  return async () => {
    const [kitchen, bar] = [await FakePrinter.start(), await FakePrinter.start()];
    printers.push(kitchen, bar);
    t = await startTestCore({ printing: { kitchenPrinters: [`kitchen=${kitchen.url}`, `bar=${bar.url}`], printRouting: 'cat_mains=kitchen,cat_drinks=bar' } });
    return { kitchen, bar, t };
  };
}

/** The `index`-th job a printer got, as the cook reads it: its lines, trimmed, blank ones left out. */
export const paper = (printer: FakePrinter, index: number): string[] =>
  normalizedText(printer.decodedJobs()[index]!.text).split('\n').map((line) => line.trim()).filter(Boolean);
