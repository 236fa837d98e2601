// receiptline, loaded by the first document rendered rather than imported: a bundle hoists a package's
// import to its top, and a till that never prints or previews a receipt would load it for nothing.
// Synchronous (require), so rendering stays a plain call for the worker and the receipt preview.
import { createRequire } from 'node:module';
import type * as ReceiptLine from 'receiptline';

let loaded: typeof ReceiptLine | undefined;

/** receiptline's `transform`: markup to ESC/POS bytes (a binary string) or to SVG. */
export function transform(markup: string, printer: ReceiptLine.Printer): string {
  loaded ??= createRequire(import.meta.url)('receiptline') as typeof ReceiptLine;
  return loaded.transform(markup, printer);
}
