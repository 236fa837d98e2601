// Pairing a till into the store by a code, the two screens of it in the sync panel's Store part: on a
// till of the store, "Pair a new till" shows a code and this till's address for 5 minutes; on a till in
// store mode without its store secret yet, a form takes that address and code (docs/store-mode.md).
// The form itself (JoinStoreForm) is also the kitchen display's, which asks for no approval.
import { useEffect, useId, useState, type FormEvent, type ReactNode } from 'react';
import { PAIRING_CODE_LIFETIME_MS, type StoreModePairing, type StoreModePairingCode } from '../../bridge/store-mode/contract';
import { ApprovedActionDialog } from '../components/ApprovedActionDialog';
import { useApprovalPin, type ApprovalPinEntry } from '../components/ApprovalPin';
import { Dialog, ErrorNote } from '../components/Dialog';
import { describedBy, FieldError } from '../components/FieldError';
import { describeError, useBridge } from '../lib/hooks';
import { useApproval } from '../lib/session';
import { issueAt } from '../lib/shift';

const LAST_WORDS: Record<NonNullable<StoreModePairing['last']>['outcome'], (tillName: string | null) => string> = {
  paired: (tillName) => `${tillName ?? 'A till'} joined the store with the code.`,
  expired: () => 'The code expired before a till used it.',
  tooManyWrongCodes: () => 'The code was typed wrong 3 times: it no longer works. Show a new one.',
  cancelled: () => 'The code was taken back.',
};

function minutesAndSeconds(ms: number): string {
  const seconds = Math.max(0, Math.ceil(ms / 1000));
  return `${Math.floor(seconds / 60)}:${String(seconds % 60).padStart(2, '0')}`;
}

/** The code shown big, with the address to type, a countdown, the wrong tries, and how it ended. */
function PairingCodeDialog({ shown, pairing, onClose }: { shown: StoreModePairingCode; pairing: StoreModePairing; onClose: () => void }) {
  const client = useBridge();
  const [now, setNow] = useState(() => Date.now());
  const [error, setError] = useState<string | null>(null);
  useEffect(() => {
    const tick = setInterval(() => setNow(Date.now()), 1000);
    return () => clearInterval(tick);
  }, []);
  const open = pairing.open !== null && pairing.open.expiresAt === shown.expiresAt ? pairing.open : null;
  // How this code ended: the last outcome, once it is later than the code (replacing an older code ends that one first).
  const ended = open === null && pairing.last !== null && Date.parse(pairing.last.at) > Date.parse(shown.expiresAt) - PAIRING_CODE_LIFETIME_MS ? pairing.last : null;
  const takeBack = async () => {
    try {
      await client.call('storeMode.cancelPairing', {});
      onClose();
    } catch (caught) {
      setError(describeError(caught));
    }
  };
  return (
    <Dialog title="Pair a new till" onClose={onClose}>
      {ended ? (
        <p className="dialog-message" role="status" data-testid="pairing-ended">
          {LAST_WORDS[ended.outcome](ended.tillName)}
        </p>
      ) : (
        <>
          <p className="dialog-message">{`On the new till, a manager opens Sync → Store and types this address and code. Nobody else needs them: say them, do not write them down.`}</p>
          <dl className="pairing-code">
            <dt>Address</dt>
            <dd data-testid="pairing-address">{shown.address}</dd>
            <dt>Code</dt>
            <dd data-testid="pairing-code">{shown.code}</dd>
          </dl>
          <p className="muted" role="timer">{`Works once, for ${minutesAndSeconds(Date.parse(shown.expiresAt) - now)} more.`}</p>
          {open !== null && open.wrongCodes > 0 ? (
            <p role="alert" data-testid="pairing-wrong-codes">{`${open.wrongCodes} wrong ${open.wrongCodes === 1 ? 'code' : 'codes'} typed: at 3 the code stops working.`}</p>
          ) : null}
        </>
      )}
      <ErrorNote message={error} />
      <div className="dialog-actions">
        {ended ? null : (
          <button type="button" className="secondary big" onClick={() => void takeBack()}>
            Take the code back
          </button>
        )}
        <button type="button" className="primary big" data-autofocus onClick={onClose}>
          {ended ? 'Done' : 'Hide'}
        </button>
      </div>
    </Dialog>
  );
}

/** On a till of the store: a code for a new till, after a manager's approval. */
export function PairTill({ pairing }: { pairing: StoreModePairing }) {
  const client = useBridge();
  const [asking, setAsking] = useState(false);
  const [shown, setShown] = useState<StoreModePairingCode | null>(null);
  return (
    <>
      <button type="button" className="secondary" onClick={() => setAsking(true)}>
        Pair a new till
      </button>
      {asking ? (
        <ApprovedActionDialog
          title="Pair a new till?"
          message="This till shows a code for 5 minutes. A manager types it on the new till, which then receives the store's secret and joins the store. The code works once; 3 wrong tries and it stops."
          permission="store.pair"
          perform={async (approval) => setShown(await client.call('storeMode.pairingCode', approval))}
          keepLabel="Not now"
          confirmLabel="Show a code"
          onClose={() => setAsking(false)}
          onDone={() => setAsking(false)}
        />
      ) : null}
      {shown ? <PairingCodeDialog shown={shown} pairing={pairing} onClose={() => setShown(null)} /> : null}
    </>
  );
}

/** What the join form says above its fields, the approval it asks (null: none, the code is enough) and its look. */
export interface JoinStoreFormProps {
  intro: ReactNode;
  approval: ApprovalPinEntry | null;
  onJoined: (sentence: string) => void;
  /** Added to the form's own class (a screen of its own styles it bigger). */
  className?: string;
  /** The address field takes the keys when the form is the whole screen. */
  autoFocus?: boolean;
}

/** The address and code another till shows, sent as storeMode.join; a refusal is shown next to its field. */
export function JoinStoreForm({ intro, approval, onJoined, className, autoFocus = false }: JoinStoreFormProps) {
  const client = useBridge();
  const ids = { address: useId(), code: useId() };
  const [address, setAddress] = useState('');
  const [code, setCode] = useState('');
  const [errors, setErrors] = useState<{ address: string | null; code: string | null; note: string | null }>({ address: null, code: null, note: null });
  const [busy, setBusy] = useState(false);
  const submit = async (event: FormEvent) => {
    event.preventDefault();
    const missing = { address: address.trim() === '' ? 'Type the address the other till shows.' : null, code: code.trim() === '' ? 'Type the code the other till shows.' : null, note: null };
    if (missing.address || missing.code) return setErrors(missing);
    if (approval?.missing) return;
    setBusy(true);
    setErrors({ address: null, code: null, note: null });
    approval?.clearRefusal();
    try {
      onJoined((await client.call('storeMode.join', { address, code, ...approval?.payload })).sentence);
    } catch (caught) {
      if (!approval?.refused(caught)) {
        const at = { address: issueAt(caught, 'address'), code: issueAt(caught, 'code') };
        setErrors({ ...at, note: at.address || at.code ? null : describeError(caught) });
      }
    } finally {
      setBusy(false);
    }
  };
  return (
    <form className={className ? `join-store ${className}` : 'join-store'} aria-label="Join the store" onSubmit={(event) => void submit(event)} noValidate data-testid="join-store">
      <p className="dialog-message">{intro}</p>
      <label>
        Address of that till
        <input value={address} autoComplete="off" autoFocus={autoFocus} placeholder="192.168.1.20:7444" onChange={(event) => setAddress(event.target.value)} {...describedBy(ids.address, errors.address)} />
      </label>
      <FieldError id={ids.address} message={errors.address} />
      <label>
        Code
        <input className="big-input" value={code} inputMode="numeric" autoComplete="off" placeholder="1234 5678" onChange={(event) => setCode(event.target.value)} {...describedBy(ids.code, errors.code)} />
      </label>
      <FieldError id={ids.code} message={errors.code} />
      {approval?.field}
      <ErrorNote message={errors.note} />
      <button type="submit" className="primary big" disabled={busy}>
        {busy ? 'Joining…' : 'Join the store'}
      </button>
    </form>
  );
}

/** On a till in store mode without its store secret: the address and code another till shows, with a manager's approval. */
export function JoinStore({ onJoined }: { onJoined: (sentence: string) => void }) {
  const approval = useApprovalPin('store.pair', useApproval('store.pair').needed);
  return (
    <JoinStoreForm
      intro="This till is set up for store mode but is not in a store yet. On a till of the store, a manager opens Sync → Store → Pair a new till; type here the address and code it shows."
      approval={approval}
      onJoined={onJoined}
    />
  );
}
