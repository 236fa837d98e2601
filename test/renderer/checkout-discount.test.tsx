// @vitest-environment happy-dom
// The discount dialog on a real core (a cashier signed in): a bad value (over 100%, more than the
// line, not a number, negative) or no reason is refused next to its field and nothing is applied; a
// comp is 100% off with its reason; above the approval limits, when the signed-in person may not
// give it alone, a manager's PIN is asked and checked by the core before anything is applied.
import { cleanup, fireEvent, screen, waitFor } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import type { Discount } from '../../bridge/contract';
import { DiscountDialog } from '../../renderer/components/DiscountDialog';
import type { BridgeClient } from '../../renderer/lib/bridge-client';
import { STAFF } from '../core/fixtures';
import { coreForEachTest, renderWith } from './with-core';

const { start } = coreForEachTest();
const cashier = () => start({}, undefined, { signIn: 'cashier', openShift: false });

function open(client: BridgeClient, { pinNeeded = false, current = null as Discount | null } = {}) {
  const applied: { discount: Discount; pin: string }[] = [];
  let removed = 0;
  renderWith(
    client,
    <DiscountDialog
      title="Discount · Burger"
      base={1200}
      currency="usd"
      current={current}
      approval={{ percentBps: 2000, amount: 1000 }}
      pinNeeded={pinNeeded}
      managerPin=""
      onApply={(discount, pin) => applied.push({ discount, pin })}
      onRemove={() => (removed += 1)}
      onClose={() => undefined}
    />,
  );
  return { applied, removed: () => removed };
}

/** The message the field points at (aria-describedby), if it is an alert. */
function fieldError(input: HTMLElement): string | null {
  const note = document.getElementById(input.getAttribute('aria-describedby') ?? '');
  return note?.getAttribute('role') === 'alert' ? note.textContent : null;
}

const apply = () => fireEvent.click(screen.getByTestId('apply-discount'));

describe('DiscountDialog', () => {
  it('refuses each bad value next to the field, keeps what was typed, and applies nothing', async () => {
    const { applied } = open(await cashier());
    const reason = screen.getByLabelText('Reason (or type your own)');
    fireEvent.change(reason, { target: { value: 'Loyalty' } });
    const value = screen.getByLabelText('Percent off') as HTMLInputElement;
    for (const [typed, message] of [
      ['110', 'Enter a percentage from 0.01% to 100%.'],
      ['ten', 'Type the percentage with digits and one decimal point, e.g. 12.5.'],
      ['-5', 'A percentage cannot be negative.'],
    ] as const) {
      fireEvent.change(value, { target: { value: typed } });
      apply();
      expect(fieldError(value), typed).toBe(message);
      expect(value.value).toBe(typed);
    }
    fireEvent.click(screen.getByLabelText('Amount'));
    const amount = screen.getByLabelText('Amount off');
    fireEvent.change(amount, { target: { value: '12.01' } });
    apply();
    expect(fieldError(amount)).toBe('A discount of $12.01 is more than the $12.00 it applies to.');
    expect(applied).toEqual([]);
    fireEvent.change(amount, { target: { value: '2.40' } });
    expect(screen.getByText('$2.40', { selector: 'strong' })).toBeTruthy(); // "Takes off $2.40"
    apply();
    expect(applied).toEqual([{ discount: { kind: 'amount', value: 240, reason: 'Loyalty' }, pin: '' }]);
  });

  it('needs a reason: a quick one is a tap, anything else is typed', async () => {
    const { applied } = open(await cashier());
    fireEvent.change(screen.getByLabelText('Percent off'), { target: { value: '10' } });
    apply();
    expect(fieldError(screen.getByLabelText('Reason (or type your own)'))).toBe('Give the discount a reason, e.g. "Staff meal".');
    expect(applied).toEqual([]);
    fireEvent.click(screen.getByRole('button', { name: 'Staff meal' }));
    expect(screen.getByRole('button', { name: 'Staff meal' }).getAttribute('aria-pressed')).toBe('true');
    apply();
    expect(applied[0]?.discount).toEqual({ kind: 'percent', value: 1000, reason: 'Staff meal' });
  });

  it('comps the line (100% off, with a reason) once a manager’s PIN is checked: a wrong PIN is refused next to it and nothing is applied', async () => {
    const { applied } = open(await cashier(), { pinNeeded: true });
    fireEvent.click(screen.getByLabelText('Comp (100%)'));
    expect(screen.queryByLabelText('Percent off')).toBeNull();
    fireEvent.click(screen.getByRole('button', { name: 'Comp – kitchen error' }));
    const pin = screen.getByLabelText('Manager PIN to approve');
    expect(screen.getByText('Above 20% or $10.00 off, a manager approves the discount.')).toBeTruthy();
    apply();
    expect(fieldError(pin)).toBe('This discount is above the limit: a manager enters their PIN (4 to 8 digits).');
    expect(applied).toEqual([]);
    fireEvent.change(pin, { target: { value: '8642' } });
    apply();
    await waitFor(() => expect(fieldError(pin)).toBe('That PIN is not right. A discount above the approval limits needs a manager. Nothing was changed.'));
    expect(applied).toEqual([]);
    expect(screen.getByTestId('apply-discount').hasAttribute('disabled')).toBe(false);
    fireEvent.change(pin, { target: { value: STAFF.manager.pin } });
    apply();
    await waitFor(() => expect(applied).toEqual([{ discount: { kind: 'percent', value: 10_000, reason: 'Comp – kitchen error' }, pin: STAFF.manager.pin }]));
  });

  it('asks no PIN within the limits; above them, none of someone who may give it (a manager signed in)', async () => {
    const client = await cashier();
    const first = open(client, { pinNeeded: true });
    fireEvent.change(screen.getByLabelText('Percent off'), { target: { value: '20' } });
    fireEvent.change(screen.getByLabelText('Reason (or type your own)'), { target: { value: 'Loyalty' } });
    expect(screen.queryByLabelText('Manager PIN to approve')).toBeNull();
    fireEvent.change(screen.getByLabelText('Percent off'), { target: { value: '25' } });
    expect(screen.getByLabelText('Manager PIN to approve')).toBeTruthy();
    fireEvent.change(screen.getByLabelText('Percent off'), { target: { value: '20' } });
    apply();
    expect(first.applied.map((a) => a.discount.value)).toEqual([2000]);
    cleanup();
    const second = open(client, { pinNeeded: false });
    fireEvent.change(screen.getByLabelText('Percent off'), { target: { value: '50' } });
    fireEvent.change(screen.getByLabelText('Reason (or type your own)'), { target: { value: 'Loyalty' } });
    expect(screen.queryByLabelText('Manager PIN to approve')).toBeNull();
    expect(screen.queryByText(/a manager approves the discount/)).toBeNull();
    apply();
    expect(second.applied).toEqual([{ discount: { kind: 'percent', value: 5000, reason: 'Loyalty' }, pin: '' }]);
  });

  it('opens on the discount already there, and can remove it', async () => {
    const { removed } = open(await cashier(), { current: { kind: 'amount', value: 250, reason: 'Loyalty' } });
    expect((screen.getByLabelText('Amount') as HTMLInputElement).checked).toBe(true);
    expect((screen.getByLabelText('Amount off') as HTMLInputElement).value).toBe('2.50');
    fireEvent.click(screen.getByRole('button', { name: 'Remove discount' }));
    expect(removed()).toBe(1);
  });
});
