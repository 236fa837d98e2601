import { useEffect, useId, useState } from 'react';
import type { Order } from '../../bridge/contract';
import { money } from '../lib/format';
import { describeError, useBridge } from '../lib/hooks';
import { PRINTER_STATE_LABEL, receiptPrinter, usePrintingStatus } from '../lib/printing';
import { Dialog, ErrorNote, StatusNote } from './Dialog';

/**
 * The core's SVG as an image: drawn by the browser's image decoder, never put into the page as
 * markup (no script or link in it can run or load; the page's CSP allows data: images).
 */
export function svgImageSource(svg: string): string {
  return `data:image/svg+xml;charset=utf-8,${encodeURIComponent(svg)}`;
}

/** Why a copy cannot be printed now, or null when it can. */
export function reprintBlocked(status: ReturnType<typeof usePrintingStatus>['status']): string | null {
  if (status === null) return 'Checking the printers…';
  if (!status.enabled) return 'No printer is set up on this terminal, so the receipt cannot be printed. IT sets printers up (--receipt-printer).';
  if (receiptPrinter(status) === null) return 'No receipt printer is set up on this terminal, so the receipt cannot be printed. IT sets it up (--receipt-printer).';
  return null;
}

/** What a reprint just did, said with the printer's state: a copy for a printer that is out waits for it. */
function reprintDone(status: ReturnType<typeof usePrintingStatus>['status']): string {
  const printer = receiptPrinter(status);
  if (printer && printer.state !== 'ready' && printer.state !== 'printing') {
    return `A copy of the receipt is queued. The receipt printer is ${PRINTER_STATE_LABEL[printer.state].toLowerCase()}: it prints when the printer is back.`;
  }
  return 'A copy of the receipt (marked COPY) is printing on the receipt printer.';
}

/** The order's receipt as it prints, drawn from the same description, and a copy on paper on request. */
export function ReceiptDialog({ order, onClose }: { order: Order; onClose: () => void }) {
  const client = useBridge();
  const { status, publish } = usePrintingStatus();
  const [preview, setPreview] = useState<{ svg: string; widthChars: number } | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [notice, setNotice] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const blockedId = useId();

  useEffect(() => {
    let live = true;
    client.call('printing.preview', { orderId: order.id }).then(
      (value) => live && setPreview(value),
      (caught: unknown) => live && setError(describeError(caught)),
    );
    return () => {
      live = false;
    };
  }, [client, order.id, order.updatedAt]);

  const blocked = reprintBlocked(status);
  const reprint = async () => {
    setBusy(true);
    setError(null);
    setNotice(null);
    try {
      const next = await client.call('printing.reprint', { orderId: order.id });
      publish(next);
      setNotice(reprintDone(next));
    } catch (caught) {
      setError(describeError(caught));
    } finally {
      setBusy(false);
    }
  };

  const items = order.lines.reduce((n, line) => n + line.quantity, 0);
  return (
    <Dialog title={`Receipt · Order ${order.label}`} onClose={onClose} wide>
      <div className="receipt-preview" role="region" aria-label="Receipt preview" tabIndex={0} data-testid="receipt-preview">
        {preview ? (
          <img
            className="receipt-image"
            src={svgImageSource(preview.svg)}
            alt={`The receipt of order ${order.label} as it prints: ${items} ${items === 1 ? 'item' : 'items'}, total ${money(order.total, order.currency)}.`}
          />
        ) : error ? null : (
          <p className="muted">Drawing the receipt…</p>
        )}
      </div>
      <ErrorNote message={error} />
      <StatusNote message={notice} testId="reprint-notice" />
      {blocked && status !== null ? (
        <p className="muted reprint-blocked" id={blockedId} data-testid="reprint-blocked">
          {blocked}
        </p>
      ) : null}
      <div className="dialog-actions">
        <button type="button" className="secondary big" onClick={onClose}>
          Close
        </button>
        <button
          type="button"
          className="primary big"
          disabled={busy || blocked !== null}
          aria-describedby={blocked && status !== null ? blockedId : undefined}
          onClick={() => void reprint()}
        >
          Reprint
        </button>
      </div>
    </Dialog>
  );
}
