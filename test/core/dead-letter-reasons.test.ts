// Refused changes explained in the cashier's words: the sentence follows from the refusal's data
// (kind, HTTP status) and the kind of change, never from the server's message, which stays in
// the letter's detail. Operations are real outbox rows on a real SQLite file.
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { deadLetterView, plainRefusal } from '../../main/core/sync-link';
import { openStore, type DeadLetterRefusal, type Store } from '../../store/index';
import { ITEMS, LOCATION, seedDataDir } from './fixtures';

let store: Store | undefined;
afterEach(() => store?.close());

const actor = { actor: 'cashier' };

function queuedOperations() {
  store = openStore(join(seedDataDir(), 'terminal.db'));
  const order = store.cashier.createOrder(
    { locationId: LOCATION, currency: 'usd', lines: [{ menu_item_id: ITEMS.fries, name: 'Fries', quantity: 1, unit_price: 450, modifiers: [] }] },
    actor,
  );
  store.cashier.createPaymentIntent(order.id, 450, 'usd', actor);
  store.cashier.updateMenuItem(ITEMS.soup, { price: 750 }, actor);
  // The intent's create waits on the order's, so it is not among the ready ones: read it by kind.
  const byKind = (kind: string) => store!.outbox.getOperation(store!.db.prepare('SELECT op_id FROM outbox WHERE kind = ?').pluck().get(kind) as string);
  return { order: byKind('order.create'), intent: byKind('payment_intent.create'), menu: byKind('menu_item.update') };
}

const refused = (cause: DeadLetterRefusal['cause'], status: number | null = null, code: string | null = null): DeadLetterRefusal => ({ cause, status, code });

describe('a refused change in plain words', () => {
  it('says what happened and what to do for each kind of refusal', () => {
    const { order, intent, menu } = queuedOperations();
    expect(plainRefusal(refused('invalid', 409), order)).toBe('This order was changed elsewhere at the same time. Check it, then retry or discard this change.');
    expect(plainRefusal(refused('invalid', 400, 'invalid_request'), intent)).toMatch(/^The cloud did not accept this card payment\. Take the payment again/);
    expect(plainRefusal(refused('invalid', 422), menu)).toBe('The cloud did not accept the details of this menu item. Check them and make the change again, then discard this one.');
    expect(plainRefusal(refused('not_found', 404, 'not_found'), menu)).toMatch(/^The cloud no longer has this menu item; .* Discard this change/);
    expect(plainRefusal(refused('permission', 403), order)).toMatch(/not allowed to make this change\. Ask a manager/);
    expect(plainRefusal(refused('unresolved_reference'), intent)).toMatch(/never reached the cloud/);
    expect(plainRefusal(refused('unrecordable'), order)).toMatch(/accepted this change, but .* Ask a manager before retrying/);
    expect(plainRefusal(refused('dependency'), intent)).toMatch(/^Not sent, because an earlier change it depends on was refused/);
    expect(plainRefusal(refused('conflict'), order)).toBe(
      "Another terminal changed the same items of this order at the same time; this till's version stays on screen, marked refused. Retry to send yours on those items (their other changes stay), or discard yours to take theirs.",
    );
    // A letter kept from before refusals were recorded.
    expect(plainRefusal(null, order)).toBe('The cloud refused this change. Ask a manager to look at the details.');
  });

  it('keeps the stored reason, with the status and code, as the detail', () => {
    const { menu } = queuedOperations();
    store!.outbox.deadLetter(menu.opId, 'the server no longer has what this change is for (no menu item mi_soup)', 1_800_000_000_000, refused('not_found', 404, 'not_found'));
    const [letter] = store!.outbox.listDeadLetters();
    expect(letter!.refusal).toEqual(refused('not_found', 404, 'not_found'));
    expect(deadLetterView(letter!, 'usd')).toMatchObject({
      reason: expect.stringMatching(/^The cloud no longer has this menu item/),
      detail: 'HTTP 404 not_found: the server no longer has what this change is for (no menu item mi_soup)',
      failedAt: new Date(1_800_000_000_000).toISOString(),
    });
  });

  it('a letter without a refusal shows the stored reason alone as the detail', () => {
    const { order } = queuedOperations();
    store!.outbox.deadLetter(order.opId, 'rejected', 1_800_000_000_000);
    const [letter] = store!.outbox.listDeadLetters();
    expect(letter!.refusal).toBeNull();
    expect(deadLetterView(letter!, 'usd')).toMatchObject({ reason: 'The cloud refused this change. Ask a manager to look at the details.', detail: 'rejected' });
  });
});
