import { useId, useState } from 'react';
import type { Order } from '../../bridge/contract';
import { money } from '../lib/format';
import { describeError, useBridge } from '../lib/hooks';
import { PRINTER_STATE_LABEL, receiptPrinter, usePrintingStatus } from '../lib/printing';
import { balanceDue } from '../lib/order-check';
import { serviceLabel } from '../lib/service';
import { ErrorNote, StatusNote } from './Dialog';

/**
 * The order just charged or saved, in a box of its own above the next ticket: its number big,
 * how it is served, what it came to and whether it is paid, and what to do now (the change to
 * give). It is the finished order's, never the new ticket's header; "Start next order" puts it away.
 * Where receipts do not print by themselves (`autoReceipt` off), a paid order's receipt prints on request.
 */
export function LastOrder({ order, notice, onNext, autoReceipt }: { order: Order; notice: string | null; onNext: () => void; autoReceipt: boolean }) {
  const titleId = useId();
  const service = serviceLabel(order.service, order.customer.name, order.channel);
  const due = balanceDue(order);
  const paid = due === 0 && order.paidAmount > 0;
  const total = (
    <strong className="last-order-total" data-testid="last-order-total">
      {money(order.total, order.currency)}
    </strong>
  );
  return (
    <section className={paid ? 'last-order last-order-paid' : 'last-order'} aria-labelledby={titleId}>
      <div className="last-order-head">
        <h2 id={titleId} className="last-order-title">
          Last order
        </h2>
        <button type="button" className="secondary" onClick={onNext}>
          Start next order
        </button>
      </div>
      <p className="order-label-big" data-testid="order-label">
        Order {order.label}
      </p>
      <p className="last-order-facts" data-testid="last-order-facts">
        {service ? `${service} · ` : ''}
        {paid ? (
          <>paid {total}</>
        ) : order.paidAmount > 0 ? (
          <>
            paid {money(order.paidAmount, order.currency)} of {total} · {money(due, order.currency)} due
          </>
        ) : (
          <>unpaid · {total} due</>
        )}
      </p>
      <StatusNote message={notice} />
      {!autoReceipt && order.paidAmount > 0 ? <PrintReceipt key={order.id} order={order} /> : null}
    </section>
  );
}

/** "Print receipt" for the order just paid, where a receipt printer is set up; says what it did. */
function PrintReceipt({ order }: { order: Order }) {
  const client = useBridge();
  const { status, publish } = usePrintingStatus();
  const [printed, setPrinted] = useState<string | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  if (receiptPrinter(status) === null) return null;
  const print = async () => {
    setBusy(true);
    setError(null);
    setPrinted(null);
    try {
      const next = await client.call('printing.reprint', { orderId: order.id });
      publish(next);
      const printer = receiptPrinter(next);
      setPrinted(
        printer && printer.state !== 'ready' && printer.state !== 'printing'
          ? `Receipt queued: the receipt printer is ${PRINTER_STATE_LABEL[printer.state].toLowerCase()}. It prints when the printer is back.`
          : 'The receipt is printing.',
      );
    } catch (caught) {
      setError(describeError(caught));
    } finally {
      setBusy(false);
    }
  };
  return (
    <div className="last-order-print">
      <button type="button" className="secondary" disabled={busy} onClick={() => void print()} data-testid="print-receipt">
        Print receipt
      </button>
      {printed ? (
        <p className="last-order-printed" role="status">
          {printed}
        </p>
      ) : null}
      <ErrorNote message={error} />
    </div>
  );
}
