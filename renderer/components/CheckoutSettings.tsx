import { useEffect, useId, useRef, useState, type FormEvent, type InputHTMLAttributes, type ReactNode } from 'react';
import { GRATUITY_NAME_MAX, GRATUITY_PERCENT_MAX_BPS } from '../../bridge/checkout/gratuity';
import type { CheckoutRules, CommandInput, SettingsView, TaxRounding } from '../../bridge/contract';
import { minorDigits } from '../../bridge/money';
import { readAmount, readPercent, readTaxRate, toAmountText, toPercentText, toRateText } from '../lib/format';
import { BridgeCallError } from '../lib/bridge-client';
import { describeError, useBridge } from '../lib/hooks';
import { useApproval } from '../lib/session';
import { ErrorNote } from './Dialog';
import { describedBy, FieldError } from './FieldError';

const TIP_SLOTS = 4;
const MAX_RATES = 50;

interface RateDraft {
  taxClass: string;
  name: string;
  rateText: string;
}

type Errors = Record<string, string>;

/** The automatic gratuity as typed; `on` false saves none whatever the fields say. */
interface GratuityDraft {
  on: boolean;
  guestsText: string;
  percentText: string;
  name: string;
  /** '' for not taxed. */
  taxClass: string;
}

function gratuityDraft(rule: CheckoutRules['autoGratuity']): GratuityDraft {
  return rule === null
    ? { on: false, guestsText: '8', percentText: '18', name: 'Gratuity', taxClass: '' }
    : { on: true, guestsText: String(rule.minGuests), percentText: toPercentText(rule.percentBps), name: rule.name, taxClass: rule.taxClass ?? '' };
}

/** The rule a draft says, or the errors of its fields (keys gratuityGuests, gratuityPercent, gratuityName). */
function readGratuity(draft: GratuityDraft, errors: Errors): CheckoutRules['autoGratuity'] | undefined {
  if (!draft.on) return null;
  const guests = /^\d{1,2}$/.test(draft.guestsText.trim()) ? Number(draft.guestsText.trim()) : NaN;
  if (!(guests >= 2 && guests <= 99)) errors.gratuityGuests = 'Say from how many guests a party gets it: a whole number from 2 to 99.';
  const percent = readPercent(draft.percentText, { min: 1, max: GRATUITY_PERCENT_MAX_BPS });
  if (percent.error !== null) errors.gratuityPercent = percent.error;
  const name = draft.name.trim();
  if (name === '' || name.length > GRATUITY_NAME_MAX) errors.gratuityName = `Give the name the check shows (1 to ${GRATUITY_NAME_MAX} characters), e.g. Gratuity.`;
  if (errors.gratuityGuests || errors.gratuityPercent || errors.gratuityName || percent.value === null) return undefined;
  return { name, percentBps: percent.value, minGuests: guests, taxClass: draft.taxClass === '' ? null : draft.taxClass };
}

function TextField({ label, value, onChange, error, errorId, ...input }: { label: ReactNode; value: string; onChange: (value: string) => void; error: string | undefined; errorId: string } & Omit<InputHTMLAttributes<HTMLInputElement>, 'value' | 'onChange'>) {
  return (
    <>
      <label>
        {label}
        <input {...input} autoComplete="off" value={value} onChange={(event) => onChange(event.target.value)} {...describedBy(errorId, error ?? null)} />
      </label>
      <FieldError id={errorId} message={error ?? null} />
    </>
  );
}

/** Reads the whole section; any refused field leaves `settings` null and says why next to it. */
function readCheckout(
  fields: {
    till: string;
    tips: string[];
    cashTips: boolean;
    tipBasis: CheckoutRules['tipBasis'];
    approvalPercent: string;
    approvalAmount: string;
    gratuity: GratuityDraft;
    taxIncluded: boolean;
    rounding: TaxRounding;
    rates: RateDraft[];
  },
  currency: string,
): { settings: Pick<CommandInput<'settings.update'>, 'checkout' | 'taxRules'> | null; errors: Errors } {
  const errors: Errors = {};
  const till = fields.till.trim();
  if (!/^[A-Z]$/.test(till)) errors.till = 'A till letter is one capital letter, A to Z.';
  const tipPercents: number[] = [];
  fields.tips.forEach((text, index) => {
    if (text.trim() === '') return;
    const read = readPercent(text, { min: 0, max: 10_000 });
    if (read.error !== null) errors[`tip${index}`] = read.error;
    else tipPercents.push(read.value);
  });
  const percent = readPercent(fields.approvalPercent);
  if (percent.error !== null) errors.approvalPercent = percent.error;
  const amount = readAmount(fields.approvalAmount, currency);
  if (amount.error !== null) errors.approvalAmount = amount.error;
  const autoGratuity = readGratuity(fields.gratuity, errors);
  const rates = fields.rates.map((rate, index) => {
    const taxClass = rate.taxClass.trim();
    const name = rate.name.trim();
    if (taxClass === '' || taxClass.length > 40) errors[`class${index}`] = 'Give the class of items it taxes (1 to 40 characters), e.g. standard.';
    if (name === '' || name.length > 60) errors[`name${index}`] = 'Give the rate the name the receipt shows (1 to 60 characters), e.g. Sales tax.';
    const read = readTaxRate(rate.rateText);
    if (read.error !== null) errors[`rate${index}`] = read.error;
    return { taxClass, name, ratePpm: read.value ?? 0 };
  });
  if (Object.keys(errors).length > 0 || percent.value === null || amount.amount === null || autoGratuity === undefined) return { settings: null, errors };
  return {
    settings: {
      checkout: { tillLetter: till, tipPercents, cashTips: fields.cashTips, tipBasis: fields.tipBasis, discountApproval: { percentBps: percent.value, amount: amount.amount }, autoGratuity },
      taxRules: { taxIncluded: fields.taxIncluded, rounding: fields.rounding, rates },
    },
    errors,
  };
}

/**
 * The checkout rules a manager sets: the till's letter in order numbers, the suggested tips,
 * cash tips, the discount approval limits, and this terminal's tax rules (used when the
 * location's record from the cloud carries none). A refused field is named and nothing is saved.
 */
export function CheckoutSettings({
  settings,
  currency,
  onSaved,
}: {
  settings: SettingsView;
  currency: string;
  /** Saved: the screen says so (this form is rebuilt with the new settings, so it cannot). */
  onSaved: () => void;
}) {
  const client = useBridge();
  const approval = useApproval('settings.store');
  const digits = minorDigits(currency);
  const { checkout, taxRules } = settings;
  const [till, setTill] = useState(checkout.tillLetter);
  const [tips, setTips] = useState(() => Array.from({ length: TIP_SLOTS }, (_, i) => (checkout.tipPercents[i] === undefined ? '' : toPercentText(checkout.tipPercents[i]))));
  const [cashTips, setCashTips] = useState(checkout.cashTips);
  const [tipBasis, setTipBasis] = useState(checkout.tipBasis);
  const [approvalPercent, setApprovalPercent] = useState(toPercentText(checkout.discountApproval.percentBps));
  const [approvalAmount, setApprovalAmount] = useState(toAmountText(checkout.discountApproval.amount, digits));
  const [gratuity, setGratuity] = useState(() => gratuityDraft(checkout.autoGratuity));
  const changeGratuity = (change: Partial<GratuityDraft>) => setGratuity((current) => ({ ...current, ...change }));
  // The classes the gratuity can be taxed with: those of the rules in force, and the one it has.
  const taxClasses = [...new Set([...settings.pricing.rates.map((rate) => rate.taxClass), ...(gratuity.taxClass ? [gratuity.taxClass] : [])])];
  const [taxIncluded, setTaxIncluded] = useState(taxRules.taxIncluded);
  const [rounding, setRounding] = useState<TaxRounding>(taxRules.rounding);
  const [rates, setRates] = useState<RateDraft[]>(() => taxRules.rates.map((rate) => ({ taxClass: rate.taxClass, name: rate.name, rateText: toRateText(rate.ratePpm) })));
  const [pin, setPin] = useState('');
  const [errors, setErrors] = useState<Errors>({});
  const [refusal, setRefusal] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const formRef = useRef<HTMLFormElement>(null);
  // The first refused field may be scrolled away from the Save button: take the manager to it.
  useEffect(() => formRef.current?.querySelector<HTMLElement>('[aria-invalid="true"]')?.focus(), [errors]);
  const idPrefix = useId();
  const errorId = (field: string) => `${idPrefix}-${field}`;
  const setRate = (index: number, change: Partial<RateDraft>) => setRates((current) => current.map((rate, i) => (i === index ? { ...rate, ...change } : rate)));

  const save = async (event: FormEvent) => {
    event.preventDefault();
    const read = readCheckout({ till, tips, cashTips, tipBasis, approvalPercent, approvalAmount, gratuity, taxIncluded, rounding, rates }, currency);
    setErrors(read.errors);
    setRefusal(null);
    if (read.settings === null) return;
    setBusy(true);
    try {
      await client.call('settings.update', { ...read.settings, ...(approval.needed && pin ? { managerPin: pin } : {}) });
      onSaved();
    } catch (caught) {
      // A missing or wrong PIN is said next to the PIN field; what was typed stays.
      if (caught instanceof BridgeCallError && caught.code === 'needs_manager' && approval.needed) setErrors({ pin: caught.message });
      else setRefusal(describeError(caught));
    } finally {
      setBusy(false);
    }
  };

  return (
    <form className="card checkout-settings" onSubmit={(event) => void save(event)} aria-label="Checkout" ref={formRef}>
      <h2>Checkout</h2>
      <TextField label="Till letter (in order numbers, e.g. A17)" value={till} onChange={(value) => setTill(value.toUpperCase())} maxLength={1} error={errors.till} errorId={errorId('till')} />
      <fieldset className="tip-settings">
        <legend>Suggested tips (%, up to {TIP_SLOTS}; leave empty for fewer)</legend>
        {tips.map((text, index) => (
          <TextField
            key={index}
            label={`Tip ${index + 1}`}
            inputMode="decimal"
            value={text}
            onChange={(value) => setTips((current) => current.map((t, i) => (i === index ? value : t)))}
            error={errors[`tip${index}`]}
            errorId={errorId(`tip${index}`)}
          />
        ))}
      </fieldset>
      <label className="checkbox">
        <input type="checkbox" checked={cashTips} onChange={(event) => setCashTips(event.target.checked)} />
        Cash payments can take a tip too
      </label>
      <fieldset className="segmented">
        <legend>Suggested tips are a percentage of</legend>
        {(
          [
            ['total', 'The total'],
            ['pre_tax', 'The amount before tax'],
          ] as const
        ).map(([option, label]) => (
          <label key={option} className={tipBasis === option ? 'segment selected' : 'segment'}>
            <input type="radio" name="tip-basis" checked={tipBasis === option} onChange={() => setTipBasis(option)} />
            {label}
          </label>
        ))}
      </fieldset>
      <fieldset className="gratuity-settings">
        <legend>Automatic gratuity for large parties</legend>
        <label className="checkbox">
          <input type="checkbox" checked={gratuity.on} onChange={(event) => changeGratuity({ on: event.target.checked })} />
          Add a gratuity to the check of a large party (charged with the payments, as a tip)
        </label>
        {gratuity.on ? (
          <>
            <TextField label="For parties of this many guests or more" inputMode="numeric" value={gratuity.guestsText} onChange={(guestsText) => changeGratuity({ guestsText })} error={errors.gratuityGuests} errorId={errorId('gratuityGuests')} />
            <TextField label="Percent of the check before tax" inputMode="decimal" value={gratuity.percentText} onChange={(percentText) => changeGratuity({ percentText })} error={errors.gratuityPercent} errorId={errorId('gratuityPercent')} />
            <TextField label="Name on the check" value={gratuity.name} maxLength={GRATUITY_NAME_MAX + 10} onChange={(name) => changeGratuity({ name })} error={errors.gratuityName} errorId={errorId('gratuityName')} />
            <label>
              Tax on the gratuity
              <select value={gratuity.taxClass} onChange={(event) => changeGratuity({ taxClass: event.target.value })}>
                <option value="">Not taxed</option>
                {taxClasses.map((taxClass) => (
                  <option key={taxClass} value={taxClass}>
                    Taxed as {taxClass}
                  </option>
                ))}
              </select>
            </label>
          </>
        ) : null}
      </fieldset>
      <h3>Discounts a manager approves</h3>
      <TextField label="Above this percent off" inputMode="decimal" value={approvalPercent} onChange={setApprovalPercent} error={errors.approvalPercent} errorId={errorId('approvalPercent')} />
      <TextField label="Above this amount off" inputMode="decimal" value={approvalAmount} onChange={setApprovalAmount} error={errors.approvalAmount} errorId={errorId('approvalAmount')} />
      <h3>Tax on this terminal</h3>
      {settings.pricing.source === 'location' ? (
        <p className="warning-note" data-testid="tax-source">
          The location&apos;s tax rules from the cloud are in force: the rules below apply only while the location has none.
        </p>
      ) : null}
      <fieldset className="segmented">
        <legend>Menu prices</legend>
        <label className={taxIncluded ? 'segment' : 'segment selected'}>
          <input type="radio" name="tax-included" checked={!taxIncluded} onChange={() => setTaxIncluded(false)} />
          Tax added on top
        </label>
        <label className={taxIncluded ? 'segment selected' : 'segment'}>
          <input type="radio" name="tax-included" checked={taxIncluded} onChange={() => setTaxIncluded(true)} />
          Tax included
        </label>
      </fieldset>
      <fieldset className="segmented">
        <legend>Round tax</legend>
        {(['per_line', 'per_order'] as const).map((option) => (
          <label key={option} className={rounding === option ? 'segment selected' : 'segment'}>
            <input type="radio" name="tax-rounding" checked={rounding === option} onChange={() => setRounding(option)} />
            {option === 'per_line' ? 'Per line' : 'Per order'}
          </label>
        ))}
      </fieldset>
      <ul className="tax-rates" aria-label="Tax rates">
        {rates.map((rate, index) => (
          <li key={index} className="tax-rate" data-testid="tax-rate">
            <TextField label={<><span className="visually-hidden">Rate {index + 1} </span>Class</>} value={rate.taxClass} onChange={(taxClass) => setRate(index, { taxClass })} error={errors[`class${index}`]} errorId={errorId(`class${index}`)} />
            <TextField label={<><span className="visually-hidden">Rate {index + 1} </span>Name</>} value={rate.name} onChange={(name) => setRate(index, { name })} error={errors[`name${index}`]} errorId={errorId(`name${index}`)} />
            <TextField label={<><span className="visually-hidden">Rate {index + 1} </span>Percent</>} inputMode="decimal" value={rate.rateText} onChange={(rateText) => setRate(index, { rateText })} error={errors[`rate${index}`]} errorId={errorId(`rate${index}`)} />
            <button type="button" className="ghost" aria-label={`Remove rate ${index + 1}`} onClick={() => setRates((current) => current.filter((_, i) => i !== index))}>
              Remove
            </button>
          </li>
        ))}
      </ul>
      <button type="button" className="secondary" disabled={rates.length >= MAX_RATES} onClick={() => setRates((current) => [...current, { taxClass: 'standard', name: '', rateText: '' }])}>
        Add a tax rate
      </button>
      {approval.needed ? (
        <TextField label={approval.label} type="password" inputMode="numeric" value={pin} onChange={setPin} error={errors.pin} errorId={errorId('pin')} />
      ) : null}
      {Object.keys(errors).length > 0 ? <p className="muted">Nothing was saved: fix the fields marked above.</p> : null}
      <ErrorNote message={refusal} />
      <div className="dialog-actions">
        <button type="submit" className="primary big" disabled={busy}>
          Save checkout settings
        </button>
      </div>
    </form>
  );
}
