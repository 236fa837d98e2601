// "At other tills": the other tills' open orders as this till holds them in store mode, under the
// till's own list on the Orders screen, each with what this till can do to it (OtherTillActions.tsx:
// sent to the order's till, which applies it) and the changes it sent that are still waiting or were
// refused. Nothing at all, and no polling, when store mode is off.
import type { StoreModeOrder } from '../../bridge/store-mode/contract';
import { ErrorNote } from '../components/Dialog';
import { money } from '../lib/format';
import { ForwardNotes, ForwardsElsewhere, OtherTillActions } from './OtherTillActions';
import { STORE_REFRESH_MS, useStoreModeOn, useStoreModeRead } from './polling';
import { tillName } from './till-words';

/** "Table 12", "Takeout · Ada", "Delivery"; '—' when the order does not say. */
function serviceText(order: StoreModeOrder): string {
  const service = order.serviceType === 'dine_in' ? (order.table ? `Table ${order.table}` : 'Dine in') : order.serviceType === 'takeout' ? 'Takeout' : order.serviceType === 'delivery' ? 'Delivery' : '';
  return [service, order.customerName ?? ''].filter((part) => part !== '').join(' · ') || '—';
}

function PaidBadge({ order }: { order: StoreModeOrder }) {
  const { amount: paid, currency } = order.paid;
  if (paid <= 0) return <span className="badge badge-open">Unpaid</span>;
  if (paid >= order.total.amount) return <span className="badge badge-paid">Paid</span>;
  return <span className="badge badge-open">{`Part paid · ${money(paid, currency)}`}</span>;
}

/** What the Orders screen's search box finds: the number, the table, the customer or the till's name. */
function matchesSearch(order: StoreModeOrder, search: string): boolean {
  const words = search.trim().toLowerCase();
  if (words === '') return true;
  return [order.label, order.number, order.table, order.customerName, tillName(order.ownerTillName, order.ownerTillId)].some((field) => field?.toLowerCase().includes(words));
}

function OtherTillsList({ search }: { search: string }) {
  const { data, error, reload } = useStoreModeRead('storeMode.orders', STORE_REFRESH_MS);
  const orders = (data?.orders ?? []).filter((order) => matchesSearch(order, search));
  return (
    <section className="other-tills" aria-label="At other tills" data-testid="other-tills">
      <h2>At other tills</h2>
      <p className="muted">Open orders of the other tills in this store. A change made here is sent to the till that owns the order and made there.</p>
      <ErrorNote message={error} />
      {orders.length > 0 ? (
        <table className="table">
          <thead>
            <tr>
              <th scope="col">Order</th>
              <th scope="col">Service · customer</th>
              <th scope="col">Total</th>
              <th scope="col">Paid</th>
              <th scope="col">Till</th>
              <th scope="col">Actions</th>
            </tr>
          </thead>
          {/* One body per order: its row, then this till's changes to it in sentences as wide as the table. */}
          {orders.map((order) => (
            <tbody key={order.id} data-other-order-id={order.id}>
              <tr>
                <td className="order-label">{order.label}</td>
                <td>{serviceText(order)}</td>
                <td>{money(order.total.amount, order.total.currency)}</td>
                <td>
                  <PaidBadge order={order} />
                </td>
                <td>
                  <span className="other-till-name">{tillName(order.ownerTillName, order.ownerTillId)}</span>
                  {order.reachedCloud ? null : <span className="badge sync-pending">Not in the cloud yet</span>}
                </td>
                <td>
                  <OtherTillActions order={order} onSent={reload} />
                </td>
              </tr>
              {order.forwards.length > 0 ? (
                <tr className="other-till-notes">
                  <td colSpan={6}>
                    <ForwardNotes order={order} onChanged={reload} />
                  </td>
                </tr>
              ) : null}
            </tbody>
          ))}
        </table>
      ) : data ? (
        <p className="muted empty">{data.orders.length === 0 ? 'No open orders at the other tills.' : 'No order of the other tills matches the search.'}</p>
      ) : null}
      <ForwardsElsewhere forwards={data?.forwardsElsewhere ?? []} onChanged={reload} />
    </section>
  );
}

/** The section, shown only when this till is in store mode. */
export function OtherTillsOrders({ search }: { search: string }) {
  const storeModeOn = useStoreModeOn();
  return storeModeOn ? <OtherTillsList search={search} /> : null;
}
