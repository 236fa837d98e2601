import { useEffect, useId, useRef, useState, type FormEvent } from 'react';
import type { SettingsView } from '../../bridge/contract';
import { minorDigits } from '../../bridge/money';
import { CheckoutSettings } from '../components/CheckoutSettings';
import { ConfirmDialog, ErrorNote, StatusNote } from '../components/Dialog';
import { describedBy, FieldError } from '../components/FieldError';
import { PrintingSettings } from '../components/PrintingSettings';
import { ResetDialog } from '../components/ResetDialog';
import { money, readAmount, readWholeNumber, toAmountText } from '../lib/format';
import { describeError, useBridge, useQuery } from '../lib/hooks';
import { splitRefusal } from '../lib/issues';
import { useSession } from '../lib/session';
import { CoursesEditor } from '../tables/CoursesEditor';

type DrawerMode = SettingsView['drawerMode'];
const DRAWER_MODES: { mode: DrawerMode; label: string }[] = [
  { mode: 'shared', label: 'One drawer for the till' },
  { mode: 'per_cashier', label: 'A drawer per cashier' },
];

/**
 * Settings as the signed-in person may see them: the owner everything; a manager the store's
 * settings (payments, checkout, tax, printing, the drawer, auto-lock) and, as whoever may lay out
 * the floor, the courses; a cashier what the till is set to, read-only.
 */
/** `resetDone`: the terminal was reset since the app opened (App keeps it: the reset locks the till, which unmounts this screen). */
export function Settings({ currency, resetDone = false }: { currency: string; resetDone?: boolean }) {
  const { can } = useSession();
  const system = can('settings.system');
  const store = can('settings.store');
  const { data: settings, error: loadError } = useQuery('settings.get', {}, ['settings.changed']);
  // An OAuth approval may still be pending from before this screen was opened (the owner's alone).
  const oauthMessage = useOAuthMessage(system);
  // These outlive the form, which is rebuilt whenever the settings change under it (a save, a key, a reset).
  const [message, setMessage] = useState<string | null>(null);
  if (!settings) return <ErrorNote message={loadError} />;
  if (!system && !store) return <TillInfo settings={settings} currency={currency} />;
  return (
    <>
      {resetDone ? (
        <p className="notice" role="status" data-testid="reset-done">
          This terminal was reset. Add an API key or connect with OAuth to sync again.
        </p>
      ) : null}
      <SettingsForm
        key={JSON.stringify(settings)}
        settings={settings}
        currency={currency}
        system={system}
        store={store}
        oauthMessage={oauthMessage}
        message={message}
        setMessage={setMessage}
        onReset={() => setMessage(null)}
      />
    </>
  );
}

/** The core's last word on an OAuth connection, asked only of someone who may see it. */
function useOAuthMessage(enabled: boolean): string {
  const client = useBridge();
  const [message, setMessage] = useState('');
  useEffect(() => {
    if (!enabled) return;
    let live = true;
    const load = () =>
      client.call('credentials.oauthStatus', {}).then(
        (status) => live && setMessage(status.message),
        () => undefined,
      );
    load();
    const offs = [client.on('oauth.finished', load), client.on('settings.changed', load)];
    return () => {
      live = false;
      offs.forEach((off) => off());
    };
  }, [client, enabled]);
  return message;
}

function minutesText(minutes: number): string {
  return minutes === 0 ? 'Never' : `After ${minutes} ${minutes === 1 ? 'minute' : 'minutes'} without use`;
}

/** A cashier's Settings: what the till is set to, and who changes it. */
function TillInfo({ settings, currency }: { settings: SettingsView; currency: string }) {
  return (
    <div className="settings">
      <section className="card" aria-label="This till">
        <h2>This till</h2>
        <p className="notice" data-testid="ask-manager">
          Ask a manager to change settings. Your PIN is changed by a manager too.
        </p>
        <dl className="facts">
          <dt>Till letter</dt>
          <dd>{settings.checkout.tillLetter}</dd>
          <dt>Locks itself</dt>
          <dd>{minutesText(settings.autoLockMinutes)}</dd>
          <dt>Cash drawer</dt>
          <dd>{settings.drawerMode === 'shared' ? 'One drawer for the till' : 'Each cashier counts their own drawer'}</dd>
          <dt>Receipts</dt>
          <dd>{settings.autoReceipt ? 'Print after each payment' : 'Print on request'}</dd>
          <dt>Offline card payments</dt>
          <dd>
            Up to {money(settings.offlineLimits.perTransaction, currency)} each without a manager
          </dd>
          <dt>Cloud</dt>
          <dd>{settings.credentials.kind === 'none' ? 'Not connected: orders stay on this till until it is' : 'Connected'}</dd>
        </dl>
      </section>
    </div>
  );
}

interface SettingsFormProps {
  settings: SettingsView;
  currency: string;
  /** The signed-in person may change the connection, the account, and reset the terminal. */
  system: boolean;
  /** … and the store's settings. */
  store: boolean;
  oauthMessage: string;
  /** The last action's confirmation ("Settings saved."), kept by the parent across rebuilds. */
  message: string | null;
  setMessage: (message: string | null) => void;
  onReset: () => void;
}

function SettingsForm({ settings, currency, system, store, oauthMessage, message, setMessage, onReset }: SettingsFormProps) {
  const { can } = useSession();
  const [error, setError] = useState<string | null>(null);

  const run = async (action: () => Promise<unknown>, done: string) => {
    setError(null);
    setMessage(null);
    try {
      await action();
      setMessage(done);
    } catch (caught) {
      setError(describeError(caught));
    }
  };
  const saved = (done: string) => () => {
    setError(null);
    setMessage(done);
  };

  return (
    <div className="settings">
      {system ? <ConnectionForm settings={settings} onSaved={saved('Settings saved.')} clearMessage={() => setMessage(null)} /> : null}
      {store ? <StoreForm settings={settings} currency={currency} setMessage={setMessage} /> : null}
      {store ? <CheckoutSettings settings={settings} currency={currency} onSaved={saved('Checkout settings saved.')} /> : null}
      {store ? <PrintingSettings settings={settings} onSaved={saved('Printing settings saved.')} /> : null}
      {can('floor.edit') ? (
        <section className="card" aria-label="Tables and sections">
          <h2>Tables and sections</h2>
          <p>The floor is laid out where it is used: on the Tables screen (Alt+8), press Edit floor to add sections and tables, name, move and resize them. IT can ship a floor in the config file.</p>
        </section>
      ) : null}
      {can('floor.edit') ? <CoursesEditor card /> : null}
      {can('staff.manage') ? (
        <section className="card" aria-label="Staff and PINs">
          <h2>Staff and PINs</h2>
          <p>Everyone signs in with their own PIN, and approves with it. Add staff, change a PIN or deactivate someone on the Staff screen.</p>
        </section>
      ) : null}
      {system ? (
        <SystemSections settings={settings} oauthMessage={oauthMessage} run={run} setError={setError} setMessage={setMessage} onReset={onReset} />
      ) : (
        <p className="muted owner-note" data-testid="owner-only">
          The connection to the cloud, the account and resetting this terminal are the owner&apos;s: ask the owner.
        </p>
      )}
      <ErrorNote message={error} />
      <StatusNote message={message} />
    </div>
  );
}

type Run = (action: () => Promise<unknown>, done: string) => Promise<void>;

/** The connection form's fields, as the core's refusals name them (issue paths), and how a sentence names each. */
const CONNECTION_FIELDS = ['apiBaseUrl', 'apiHost', 'authUrl', 'locationId', 'webhook.host', 'webhook.port', 'webhookSigningSecret'] as const;
type ConnectionField = (typeof CONNECTION_FIELDS)[number];
const CONNECTION_LABELS: Record<ConnectionField, string> = {
  apiBaseUrl: 'the API base URL',
  apiHost: 'the API host',
  authUrl: 'the dashboard URL',
  locationId: 'the location',
  'webhook.host': 'the host',
  'webhook.port': 'the port',
  webhookSigningSecret: 'the signing secret',
};
/** What the bridge takes (bridge/contract.ts, settings.update). */
const LOCATION_ID_MAX = 80;
const WEBHOOK_HOST_MAX = 255;

/** The cloud's addresses, the location and the webhook receiver: the owner's (or IT's). Each refusal under its field, the first focused. */
function ConnectionForm({ settings, onSaved, clearMessage }: { settings: SettingsView; onSaved: () => void; clearMessage: () => void }) {
  const client = useBridge();
  const { data: locations } = useQuery('location.list', {});
  const [apiBaseUrl, setApiBaseUrl] = useState(settings.apiBaseUrl);
  const [apiHost, setApiHost] = useState(settings.apiHost);
  const [authUrl, setAuthUrl] = useState(settings.authUrl);
  const [locationId, setLocationId] = useState(settings.locationId);
  const [webhook, setWebhook] = useState({ enabled: settings.webhook.enabled, host: settings.webhook.host });
  // Kept as typed: a port that is not a number is refused next to the field, never read as 0.
  const [portText, setPortText] = useState(String(settings.webhook.port));
  const [webhookSecret, setWebhookSecret] = useState('');
  const ids = {
    apiBaseUrl: useId(),
    apiHost: useId(),
    authUrl: useId(),
    locationId: useId(),
    'webhook.host': useId(),
    'webhook.port': useId(),
    webhookSigningSecret: useId(),
  } satisfies Record<ConnectionField, string>;
  const [errors, setErrors] = useState<Partial<Record<ConnectionField, string>>>({});
  /** What the core refused about no field of this form. */
  const [note, setNote] = useState<string | null>(null);
  const [attempt, setAttempt] = useState(0);
  const [busy, setBusy] = useState(false);
  const formRef = useRef<HTMLFormElement>(null);
  useEffect(() => {
    if (attempt > 0) formRef.current?.querySelector<HTMLElement>('[aria-invalid="true"]')?.focus();
  }, [attempt]);
  const field = (name: ConnectionField) => describedBy(ids[name], errors[name] ?? null);
  const error = (name: ConnectionField) => <FieldError id={ids[name]} message={errors[name] ?? null} />;
  /** A field typed in again is no longer refused. */
  const edit = (name: ConnectionField, set: () => void) => {
    set();
    if (errors[name] !== undefined) setErrors(({ [name]: _fixed, ...rest }) => rest);
  };

  const save = async (event: FormEvent) => {
    event.preventDefault();
    clearMessage();
    setNote(null);
    const port = readWholeNumber(portText, 0, 65535);
    if (port.value === null) {
      setErrors({ 'webhook.port': port.error ?? 'The port is a whole number from 0 to 65535.' });
      setAttempt((n) => n + 1);
      return;
    }
    setErrors({});
    setBusy(true);
    try {
      // An address left empty is one not set here (the core keeps what it has), never an empty one.
      await client.call('settings.update', {
        ...(apiBaseUrl.trim() ? { apiBaseUrl: apiBaseUrl.trim() } : {}),
        ...(apiHost.trim() ? { apiHost: apiHost.trim() } : {}),
        ...(authUrl.trim() ? { authUrl: authUrl.trim() } : {}),
        ...(locationId ? { locationId } : {}),
        webhook: { ...webhook, port: port.value },
        ...(webhookSecret ? { webhookSigningSecret: webhookSecret } : {}),
      });
      onSaved();
    } catch (caught) {
      const refusal = splitRefusal(caught, CONNECTION_FIELDS, CONNECTION_LABELS);
      setErrors(refusal.fields);
      setNote(refusal.note);
      setAttempt((n) => n + 1);
    } finally {
      setBusy(false);
    }
  };
  const refused = Object.keys(errors).length > 0;

  return (
    <form className="card" onSubmit={(event) => void save(event)} aria-label="Connection" ref={formRef} noValidate>
      <h2>Connection</h2>
      <label>
        API base URL
        <input type="url" value={apiBaseUrl} onChange={(event) => edit('apiBaseUrl', () => setApiBaseUrl(event.target.value))} {...field('apiBaseUrl')} />
      </label>
      {error('apiBaseUrl')}
      <label>
        API host (OAuth token endpoint)
        <input type="url" value={apiHost} onChange={(event) => edit('apiHost', () => setApiHost(event.target.value))} {...field('apiHost')} />
      </label>
      {error('apiHost')}
      <label>
        Dashboard (consent page) URL
        <input type="url" value={authUrl} onChange={(event) => edit('authUrl', () => setAuthUrl(event.target.value))} {...field('authUrl')} />
      </label>
      {error('authUrl')}
      <label>
        Location
        {locations && locations.length > 0 ? (
          <select value={locationId} onChange={(event) => edit('locationId', () => setLocationId(event.target.value))} {...field('locationId')}>
            {locations.some((l) => l.id === locationId) ? null : <option value={locationId}>{locationId || 'Choose a location'}</option>}
            {locations.map((location) => (
              <option key={location.id} value={location.id}>
                {location.name}
              </option>
            ))}
          </select>
        ) : (
          <input
            value={locationId}
            maxLength={LOCATION_ID_MAX}
            onChange={(event) => edit('locationId', () => setLocationId(event.target.value))}
            placeholder="loc_… (the list appears after the first sync)"
            {...field('locationId')}
          />
        )}
      </label>
      {error('locationId')}
      <h2>Webhook receiver</h2>
      <label className="checkbox">
        <input type="checkbox" checked={webhook.enabled} onChange={(event) => setWebhook({ ...webhook, enabled: event.target.checked })} />
        Receive webhook events
      </label>
      <label>
        Listen on host
        <input value={webhook.host} maxLength={WEBHOOK_HOST_MAX} onChange={(event) => edit('webhook.host', () => setWebhook({ ...webhook, host: event.target.value }))} {...field('webhook.host')} />
      </label>
      {error('webhook.host')}
      <label>
        Port (0 picks a free one)
        <input inputMode="numeric" value={portText} onChange={(event) => edit('webhook.port', () => setPortText(event.target.value))} {...field('webhook.port')} />
      </label>
      {error('webhook.port')}
      <label>
        Signing secret {settings.webhook.secretSet ? '(set; paste a new one to replace it)' : '(from the dashboard, starts with whsec_)'}
        <input type="password" autoComplete="off" value={webhookSecret} onChange={(event) => edit('webhookSigningSecret', () => setWebhookSecret(event.target.value))} {...field('webhookSigningSecret')} />
      </label>
      {error('webhookSigningSecret')}
      {settings.webhook.url ? (
        <p className="muted" data-testid="webhook-url">
          Receiving at {settings.webhook.url}
          {settings.webhook.secretSet ? '' : ' — events are refused until the signing secret is set.'}
        </p>
      ) : null}
      <ErrorNote message={note} />
      {refused ? <p className="muted">Nothing was saved: fix the field marked above.</p> : null}
      <div className="dialog-actions">
        <button type="submit" className="primary big" disabled={busy}>
          Save connection
        </button>
      </div>
    </form>
  );
}

/** The fields of the store's form, named as the core's refusals name them. */
const STORE_FIELDS = ['perTransaction', 'total', 'confirmChargeAbove', 'drawerMode', 'autoLockMinutes'] as const;
type StoreField = (typeof STORE_FIELDS)[number];

/** The store's limits and the till's habits: offline card limits, large charges, the drawer, auto-lock. */
function StoreForm({ settings, currency, setMessage }: { settings: SettingsView; currency: string; setMessage: (message: string | null) => void }) {
  const client = useBridge();
  const digits = minorDigits(currency);
  const [perTransaction, setPerTransaction] = useState(toAmountText(settings.offlineLimits.perTransaction, digits));
  const [total, setTotal] = useState(toAmountText(settings.offlineLimits.total, digits));
  const [confirmAbove, setConfirmAbove] = useState(toAmountText(settings.confirmChargeAbove, digits));
  const [drawerMode, setDrawerMode] = useState<DrawerMode>(settings.drawerMode);
  const [autoLockText, setAutoLockText] = useState(String(settings.autoLockMinutes));
  const ids = { perTransaction: useId(), total: useId(), confirmChargeAbove: useId(), drawerMode: useId(), autoLockMinutes: useId() };
  const [fieldErrors, setFieldErrors] = useState<Partial<Record<StoreField, string>>>({});
  const [refusal, setRefusal] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const fieldError = (field: StoreField) => fieldErrors[field] ?? null;
  const invalid = (field: StoreField) => describedBy(ids[field], fieldError(field));
  const formRef = useRef<HTMLFormElement>(null);
  // The first refused field may be scrolled away from the Save button: take the manager to it.
  useEffect(() => formRef.current?.querySelector<HTMLElement>('[aria-invalid="true"], fieldset[aria-describedby] input:checked')?.focus(), [fieldErrors]);

  const save = async (event: FormEvent) => {
    event.preventDefault();
    setRefusal(null);
    const per = readAmount(perTransaction, currency);
    const all = readAmount(total, currency);
    const above = readAmount(confirmAbove, currency);
    const autoLock = readWholeNumber(autoLockText, 0, 240);
    const errors = {
      ...(per.error ? { perTransaction: per.error } : {}),
      ...(all.error ? { total: all.error } : {}),
      ...(above.error ? { confirmChargeAbove: above.error } : {}),
      ...(autoLock.error ? { autoLockMinutes: autoLock.error } : {}),
    };
    setFieldErrors(errors);
    if (per.amount === null || all.amount === null || above.amount === null || autoLock.value === null || Object.keys(errors).length > 0) {
      setMessage(null);
      return;
    }
    setBusy(true);
    setMessage(null);
    try {
      await client.call('settings.update', {
        offlineLimits: { perTransaction: per.amount, total: all.amount },
        confirmChargeAbove: above.amount,
        drawerMode,
        autoLockMinutes: autoLock.value,
      });
      setMessage('Settings saved.');
    } catch (caught) {
      // A refusal about a field (the drawer mode while a shift is open) is said next to it; what was typed stays.
      const split = splitRefusal(caught, STORE_FIELDS);
      setFieldErrors(split.fields);
      setRefusal(split.note);
    } finally {
      setBusy(false);
    }
  };

  return (
    <form className="card" onSubmit={(event) => void save(event)} aria-label="Payments and the till" ref={formRef}>
      <h2>Offline card payments</h2>
      <label>
        Largest single payment without a manager
        <input inputMode="decimal" value={perTransaction} onChange={(event) => setPerTransaction(event.target.value)} {...invalid('perTransaction')} />
      </label>
      <FieldError id={ids.perTransaction} message={fieldError('perTransaction')} />
      <label>
        Largest total stored offline without a manager
        <input inputMode="decimal" value={total} onChange={(event) => setTotal(event.target.value)} {...invalid('total')} />
      </label>
      <FieldError id={ids.total} message={fieldError('total')} />
      <h2>Large charges</h2>
      <label>
        Ask to confirm a charge above (0: never ask)
        <input inputMode="decimal" value={confirmAbove} onChange={(event) => setConfirmAbove(event.target.value)} {...invalid('confirmChargeAbove')} />
      </label>
      <FieldError id={ids.confirmChargeAbove} message={fieldError('confirmChargeAbove')} />
      <h2>Cash drawer and sign-in</h2>
      <fieldset className="segmented" aria-describedby={fieldError('drawerMode') ? ids.drawerMode : undefined}>
        <legend>Cash drawer</legend>
        {DRAWER_MODES.map(({ mode, label }) => (
          <label key={mode} className={drawerMode === mode ? 'segment selected' : 'segment'}>
            <input type="radio" name="drawer-mode" checked={drawerMode === mode} onChange={() => setDrawerMode(mode)} />
            {label}
          </label>
        ))}
      </fieldset>
      <FieldError id={ids.drawerMode} message={fieldError('drawerMode')} />
      <p className="muted field-hint">
        {drawerMode === 'shared' ? 'Every cashier sells into the till’s one drawer, counted at the end of the shift.' : 'Each cashier opens, uses and counts their own drawer.'}
      </p>
      <label>
        Lock the till after this many minutes without use (0: never)
        <input inputMode="numeric" value={autoLockText} onChange={(event) => setAutoLockText(event.target.value)} {...invalid('autoLockMinutes')} />
      </label>
      <FieldError id={ids.autoLockMinutes} message={fieldError('autoLockMinutes')} />
      {Object.keys(fieldErrors).length > 0 ? <p className="muted">Nothing was saved: fix the fields marked above.</p> : null}
      <ErrorNote message={refusal} />
      <div className="dialog-actions">
        <button type="submit" className="primary big" disabled={busy}>
          Save payments and till
        </button>
      </div>
    </form>
  );
}

/** The account (API key, OAuth, signing out) and resetting the terminal: the owner's. */
function SystemSections({
  settings,
  oauthMessage,
  run,
  setError,
  setMessage,
  onReset,
}: {
  settings: SettingsView;
  oauthMessage: string;
  run: Run;
  setError: (error: string | null) => void;
  setMessage: (message: string | null) => void;
  onReset: () => void;
}) {
  const client = useBridge();
  const [apiKey, setApiKey] = useState('');
  /** Why the key was refused, under the key's field (focused). */
  const [keyError, setKeyError] = useState<string | null>(null);
  const keyErrorId = useId();
  const keyRef = useRef<HTMLInputElement>(null);
  // This form's own news (a click, an event it saw) wins; otherwise the core's last word, which
  // survives the form being rebuilt when the settings change under it.
  const [oauthNews, setOauth] = useState<string | null>(null);
  const oauth = oauthNews ?? (oauthMessage || null);
  const [signOut, setSignOut] = useState<string | null>(null);
  const [resetting, setResetting] = useState(false);

  useEffect(() => client.on('oauth.finished', (result) => setOauth(result.message)), [client]);

  const connectOAuth = async () => {
    setError(null);
    try {
      const { authorizeUrl } = await client.call('credentials.connectOAuth', {});
      setOauth('Approve the connection in the window that opened, then come back here.');
      // Browser mode opens the consent page in a new tab; the Electron shell opens the system browser itself.
      if (!window.posBridge) window.open(authorizeUrl, '_blank', 'noopener');
    } catch (caught) {
      setError(describeError(caught));
    }
  };

  const askSignOut = async () => {
    try {
      const pending = await client.call('session.pending', {});
      setSignOut(
        pending.pending > 0
          ? `${pending.message} Signed out, they stay on this terminal but nothing is sent until it is connected again.`
          : 'You will need the API key or an OAuth connection to sync again.',
      );
    } catch (caught) {
      setError(describeError(caught));
    }
  };

  return (
    <>
      <section className="card" aria-label="Account">
        <h2>Account</h2>
        <p>
          {settings.credentials.kind === 'none'
            ? 'Not connected: orders are kept on this terminal until you connect.'
            : `Connected with ${settings.credentials.kind === 'oauth' ? 'OAuth' : 'an API key'} (${settings.credentials.hint}).`}
        </p>
        <form
          onSubmit={(event) => {
            event.preventDefault();
            setError(null);
            setKeyError(null);
            setMessage(null);
            client.call('credentials.setApiKey', { apiKey }).then(
              ({ keyCheck }) => {
                setApiKey('');
                setMessage(keyCheck);
              },
              (caught: unknown) => {
                const refusal = splitRefusal(caught, ['apiKey'] as const, { apiKey: 'the API key' });
                setKeyError(refusal.fields.apiKey ?? refusal.note);
                keyRef.current?.focus();
              },
            );
          }}
        >
          <label>
            API key
            <input
              ref={keyRef}
              type="password"
              autoComplete="off"
              placeholder="sk_test_… or sk_live_…"
              value={apiKey}
              onChange={(event) => {
                setApiKey(event.target.value);
                setKeyError(null);
              }}
              {...describedBy(keyErrorId, keyError)}
            />
          </label>
          <FieldError id={keyErrorId} message={keyError} />
          <div className="dialog-actions">
            <button type="submit" className="secondary big" disabled={apiKey === ''}>
              Use this API key
            </button>
            <button type="button" className="primary big" onClick={() => void connectOAuth()}>
              Connect with OAuth
            </button>
          </div>
        </form>
        <StatusNote message={oauth} testId="oauth-status" />
        <div className="dialog-actions">
          <button type="button" className="danger big" onClick={() => void askSignOut()} disabled={settings.credentials.kind === 'none'}>
            Sign out
          </button>
        </div>
      </section>
      <section className="card" aria-label="This terminal">
        <h2>This terminal</h2>
        <p>Deletes every order, payment, staff member and setting kept here, and the sign-in, as for a new terminal.</p>
        <div className="dialog-actions">
          <button type="button" className="danger big" onClick={() => setResetting(true)}>
            Reset this terminal
          </button>
        </div>
      </section>
      {resetting ? <ResetDialog onClose={() => setResetting(false)} onDone={onReset} /> : null}
      {signOut ? (
        <ConfirmDialog
          title="Sign out of this terminal?"
          message={signOut}
          confirmLabel="Sign out"
          danger
          onClose={() => setSignOut(null)}
          onConfirm={() => {
            setSignOut(null);
            void run(() => client.call('session.signOut', { despitePending: true }), 'Signed out.');
          }}
        />
      ) : null}
    </>
  );
}
