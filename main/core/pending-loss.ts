// What exists only on this terminal: quitting keeps it for later, but signing out leaves it unsent
// and a reset destroys it. The dialogs that guard those actions say exactly this, in numbers.
import { lossAtStake, type PendingLoss } from '../../bridge/contract';
import type { Store } from '../../store/index';
import { DEFAULT_LOCALE } from './views';

function plural(n: number, one: string, many: string): string {
  return `${n} ${n === 1 ? one : many}`;
}

/**
 * Counts the unfinished outbox (orders and card payments among it), the dead letters and the
 * repriced orders nobody has settled.
 * `timeZone` (empty: this computer's) and `locale` are the location's, for the time of the oldest change.
 */
export function pendingLoss(store: Store, now: number, timeZone: string, locale = DEFAULT_LOCALE): PendingLoss {
  const stats = store.outbox.outboxStats(now);
  const pending = stats.pending + stats.inFlight;
  let orders = 0;
  let cardPayments = 0;
  for (const [key, state] of store.outbox.entitySyncStates()) {
    if (state !== 'unfinished') continue;
    if (key.startsWith('order:')) orders++;
    else if (key.startsWith('payment_intent:')) cardPayments++;
  }
  const oldestPendingAt = stats.oldestPendingAgeMs === null ? null : now - stats.oldestPendingAgeMs;
  const repricedOrders = store.repricedOrders.listUnsettled().length;
  return {
    pending,
    orders,
    cardPayments,
    deadLetters: stats.deadLetters,
    repricedOrders,
    oldestPendingAt: oldestPendingAt === null ? null : new Date(oldestPendingAt).toISOString(),
    message: lossMessage({ pending, orders, cardPayments, deadLetters: stats.deadLetters, repricedOrders, oldestPendingAt }, now, timeZone, locale),
  };
}

function whenText(at: number, now: number, timeZone: string, locale: string): string {
  const zone = timeZone || undefined;
  // The calendar day, not the business day: "today at 1:10 AM" is what a person says at 2 AM.
  const day = (ms: number) => new Intl.DateTimeFormat('en-CA', { timeZone: zone, dateStyle: 'short' }).format(ms);
  const time = new Intl.DateTimeFormat(locale, { timeZone: zone, hour: 'numeric', minute: '2-digit' }).format(at);
  if (day(at) === day(now)) return `today at ${time}`;
  return `${new Intl.DateTimeFormat(locale, { timeZone: zone, month: 'short', day: 'numeric' }).format(at)} at ${time}`;
}

function lossMessage(
  loss: { pending: number; orders: number; cardPayments: number; deadLetters: number; repricedOrders: number; oldestPendingAt: number | null },
  now: number,
  timeZone: string,
  locale: string,
): string {
  if (!lossAtStake(loss)) return 'Everything is synced.';
  const parts: string[] = [];
  if (loss.pending > 0) {
    const which = [loss.orders > 0 ? plural(loss.orders, 'order', 'orders') : '', loss.cardPayments > 0 ? plural(loss.cardPayments, 'card payment', 'card payments') : '']
      .filter(Boolean)
      .join(' and ');
    const oldest = loss.oldestPendingAt === null ? '' : `, the oldest made ${whenText(loss.oldestPendingAt, now, timeZone, locale)}`;
    parts.push(`${plural(loss.pending, 'change is', 'changes are')} not in the cloud yet${which ? ` (touching ${which})` : ''}${oldest}.`);
  }
  if (loss.deadLetters > 0) parts.push(`${plural(loss.deadLetters, 'change was', 'changes were')} refused by the cloud and ${loss.deadLetters === 1 ? 'is' : 'are'} still listed in the sync panel.`);
  if (loss.repricedOrders > 0) {
    parts.push(`${plural(loss.repricedOrders, 'order', 'orders')} priced differently by the cloud ${loss.repricedOrders === 1 ? 'is' : 'are'} not settled yet (listed in the sync panel).`);
  }
  return parts.join(' ');
}
