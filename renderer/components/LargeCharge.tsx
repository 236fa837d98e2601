import { DEFAULT_CONFIRM_CHARGE_ABOVE } from '../../bridge/contract';
import type { PaymentMethod } from '../../bridge/primitives';
import { money } from '../lib/format';
import { useQuery } from '../lib/hooks';

/** Above how much a charge is looked at twice (a slipped key, a price typed in cents); 0: never. */
export function useConfirmChargeAbove(): number {
  const { data: settings } = useQuery('settings.get', {}, ['settings.changed']);
  return settings?.confirmChargeAbove ?? DEFAULT_CONFIRM_CHARGE_ABOVE;
}

/** "Charge $1,200.00? That is more than $500.00.", with the safe answer focused: Enter twice must not charge an amount nobody looked at. */
export function LargeChargeConfirm({
  method,
  charge,
  above,
  currency,
  busy,
  onBack,
  onConfirm,
}: {
  method: PaymentMethod;
  charge: number;
  above: number;
  currency: string;
  busy: boolean;
  onBack: () => void;
  onConfirm: () => void;
}) {
  return (
    <div className="large-charge">
      <p className="warning-note" role="alert">
        {`${method === 'cash' ? `Take ${money(charge, currency)} in cash` : `Charge ${money(charge, currency)}`}? That is more than ${money(above, currency)}.`}
      </p>
      <div className="dialog-actions">
        <button type="button" className="secondary big" onClick={onBack} autoFocus>
          No, go back
        </button>
        <button type="button" className="primary big" disabled={busy} onClick={onConfirm}>
          {busy ? 'Recording…' : method === 'cash' ? `Yes, take ${money(charge, currency)} cash` : `Yes, charge ${money(charge, currency)}`}
        </button>
      </div>
    </div>
  );
}
