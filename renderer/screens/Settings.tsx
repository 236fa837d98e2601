import { useEffect, useId, useRef, useState, type FormEvent } from 'react';
import type { SettingsView } from '../../bridge/contract';
import { minorDigits } from '../../bridge/money';
import { CheckoutSettings } from '../components/CheckoutSettings';
import { ConfirmDialog, ErrorNote, StatusNote } from '../components/Dialog';
import { describedBy, FieldError } from '../components/FieldError';
import { PrintingSettings } from '../components/PrintingSettings';
import { ResetDialog } from '../components/ResetDialog';
import { readAmount, readWholeNumber, toAmountText } from '../lib/format';
import { describeError, useBridge, useQuery } from '../lib/hooks';

export function Settings({ currency }: { currency: string }) {
  const { data: settings, error: loadError } = useQuery('settings.get', {}, ['settings.changed']);
  // An OAuth approval may still be pending from before this screen was opened.
  const { data: oauthStatus } = useQuery('credentials.oauthStatus', {}, ['oauth.finished', 'settings.changed']);
  // These outlive the form, which is rebuilt whenever the settings change under it (a save, a key, a reset).
  const [resetDone, setResetDone] = useState(false);
  const [message, setMessage] = useState<string | null>(null);
  if (!settings) return <ErrorNote message={loadError} />;
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
        oauthMessage={oauthStatus?.message ?? ''}
        message={message}
        setMessage={setMessage}
        onReset={() => {
          setMessage(null);
          setResetDone(true);
        }}
      />
    </>
  );
}

interface SettingsFormProps {
  settings: SettingsView;
  currency: string;
  oauthMessage: string;
  /** The last action's confirmation ("Settings saved."), kept by the parent across rebuilds. */
  message: string | null;
  setMessage: (message: string | null) => void;
  onReset: () => void;
}

function SettingsForm({ settings, currency, oauthMessage, message, setMessage, onReset }: SettingsFormProps) {
  const client = useBridge();
  const { data: locations } = useQuery('location.list', {});
  const digits = minorDigits(currency);
  const [apiBaseUrl, setApiBaseUrl] = useState(settings.apiBaseUrl);
  const [apiHost, setApiHost] = useState(settings.apiHost);
  const [authUrl, setAuthUrl] = useState(settings.authUrl);
  const [locationId, setLocationId] = useState(settings.locationId);
  const [webhook, setWebhook] = useState({ enabled: settings.webhook.enabled, host: settings.webhook.host });
  // Kept as typed: a port that is not a number is refused next to the field, never read as 0.
  const [portText, setPortText] = useState(String(settings.webhook.port));
  const [webhookSecret, setWebhookSecret] = useState('');
  const [perTransaction, setPerTransaction] = useState(toAmountText(settings.offlineLimits.perTransaction, digits));
  const [total, setTotal] = useState(toAmountText(settings.offlineLimits.total, digits));
  const [confirmAbove, setConfirmAbove] = useState(toAmountText(settings.confirmChargeAbove, digits));
  const fieldIds = { port: useId(), perTransaction: useId(), total: useId(), confirmAbove: useId(), newPin: useId() };
  const [fieldErrors, setFieldErrors] = useState<Partial<Record<keyof typeof fieldIds, string>>>({});
  const fieldError = (field: keyof typeof fieldIds) => fieldErrors[field] ?? null;
  const invalid = (field: keyof typeof fieldIds) => describedBy(fieldIds[field], fieldError(field));
  const formRef = useRef<HTMLFormElement>(null);
  // The first refused field may be scrolled away from the Save button: take the cashier to it.
  useEffect(() => formRef.current?.querySelector<HTMLElement>('[aria-invalid="true"]')?.focus(), [fieldErrors]);
  const [newPin, setNewPin] = useState('');
  const [currentPin, setCurrentPin] = useState('');
  const [apiKey, setApiKey] = useState('');
  const [error, setError] = useState<string | null>(null);
  // This form's own news (a click, an event it saw) wins; otherwise the core's last word, which
  // survives the form being rebuilt when the settings change under it.
  const [oauthNews, setOauth] = useState<string | null>(null);
  const oauth = oauthNews ?? (oauthMessage || null);
  const [signOut, setSignOut] = useState<string | null>(null);
  const [resetting, setResetting] = useState(false);

  useEffect(() => client.on('oauth.finished', (result) => setOauth(result.message)), [client]);

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

  const saveConnection = (event: FormEvent) => {
    event.preventDefault();
    const port = readWholeNumber(portText, 0, 65535);
    const per = readAmount(perTransaction, currency);
    const all = readAmount(total, currency);
    const above = readAmount(confirmAbove, currency);
    const errors = {
      ...(port.error ? { port: port.error } : {}),
      ...(per.error ? { perTransaction: per.error } : {}),
      ...(all.error ? { total: all.error } : {}),
      ...(above.error ? { confirmAbove: above.error } : {}),
      ...(newPin !== '' && !/^\d{4,8}$/.test(newPin) ? { newPin: 'A manager PIN is 4 to 8 digits.' } : {}),
    };
    setFieldErrors(errors);
    if (port.value === null || per.amount === null || all.amount === null || above.amount === null || Object.keys(errors).length > 0) {
      setMessage(null);
      return;
    }
    void run(
      () =>
        client.call('settings.update', {
          apiBaseUrl,
          apiHost,
          authUrl,
          ...(locationId ? { locationId } : {}),
          webhook: { ...webhook, port: port.value },
          ...(webhookSecret ? { webhookSigningSecret: webhookSecret } : {}),
          offlineLimits: { perTransaction: per.amount, total: all.amount },
          confirmChargeAbove: above.amount,
          ...(newPin ? { newManagerPin: newPin } : {}),
          ...(currentPin ? { managerPin: currentPin } : {}),
        }),
      'Settings saved.',
    );
  };

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
    <div className="settings">
      <form className="card" onSubmit={saveConnection} aria-label="Connection and limits" ref={formRef}>
        <h2>Connection</h2>
        <label>
          API base URL
          <input type="url" value={apiBaseUrl} onChange={(event) => setApiBaseUrl(event.target.value)} />
        </label>
        <label>
          API host (OAuth token endpoint)
          <input type="url" value={apiHost} onChange={(event) => setApiHost(event.target.value)} />
        </label>
        <label>
          Dashboard (consent page) URL
          <input type="url" value={authUrl} onChange={(event) => setAuthUrl(event.target.value)} />
        </label>
        <label>
          Location
          {locations && locations.length > 0 ? (
            <select value={locationId} onChange={(event) => setLocationId(event.target.value)}>
              {locations.some((l) => l.id === locationId) ? null : <option value={locationId}>{locationId || 'Choose a location'}</option>}
              {locations.map((location) => (
                <option key={location.id} value={location.id}>
                  {location.name}
                </option>
              ))}
            </select>
          ) : (
            <input value={locationId} onChange={(event) => setLocationId(event.target.value)} placeholder="loc_… (the list appears after the first sync)" />
          )}
        </label>
        <h2>Webhook receiver</h2>
        <label className="checkbox">
          <input type="checkbox" checked={webhook.enabled} onChange={(event) => setWebhook({ ...webhook, enabled: event.target.checked })} />
          Receive webhook events
        </label>
        <label>
          Listen on host
          <input value={webhook.host} onChange={(event) => setWebhook({ ...webhook, host: event.target.value })} />
        </label>
        <label>
          Port (0 picks a free one)
          <input inputMode="numeric" value={portText} onChange={(event) => setPortText(event.target.value)} {...invalid('port')} />
        </label>
        <FieldError id={fieldIds.port} message={fieldError('port')} />
        <label>
          Signing secret {settings.webhook.secretSet ? '(set; paste a new one to replace it)' : '(from the dashboard, starts with whsec_)'}
          <input type="password" autoComplete="off" value={webhookSecret} onChange={(event) => setWebhookSecret(event.target.value)} />
        </label>
        {settings.webhook.url ? (
          <p className="muted" data-testid="webhook-url">
            Receiving at {settings.webhook.url}
            {settings.webhook.secretSet ? '' : ' — events are refused until the signing secret is set.'}
          </p>
        ) : null}
        <h2>Offline card payments</h2>
        <label>
          Largest single payment without a manager
          <input inputMode="decimal" value={perTransaction} onChange={(event) => setPerTransaction(event.target.value)} {...invalid('perTransaction')} />
        </label>
        <FieldError id={fieldIds.perTransaction} message={fieldError('perTransaction')} />
        <label>
          Largest total stored offline without a manager
          <input inputMode="decimal" value={total} onChange={(event) => setTotal(event.target.value)} {...invalid('total')} />
        </label>
        <FieldError id={fieldIds.total} message={fieldError('total')} />
        <label>
          {settings.managerPinSet ? 'New manager PIN (leave empty to keep)' : 'Set a manager PIN'}
          <input type="password" inputMode="numeric" autoComplete="new-password" value={newPin} onChange={(event) => setNewPin(event.target.value)} {...invalid('newPin')} />
        </label>
        <FieldError id={fieldIds.newPin} message={fieldError('newPin')} />
        {settings.managerPinSet ? (
          <label>
            Current manager PIN (needed to change limits or the PIN)
            <input type="password" inputMode="numeric" autoComplete="off" value={currentPin} onChange={(event) => setCurrentPin(event.target.value)} />
          </label>
        ) : null}
        <h2>Large charges</h2>
        <label>
          Ask to confirm a charge above (0: never ask)
          <input inputMode="decimal" value={confirmAbove} onChange={(event) => setConfirmAbove(event.target.value)} {...invalid('confirmAbove')} />
        </label>
        <FieldError id={fieldIds.confirmAbove} message={fieldError('confirmAbove')} />
        {Object.keys(fieldErrors).length > 0 ? <p className="muted">Nothing was saved: fix the fields marked above.</p> : null}
        <div className="dialog-actions">
          <button type="submit" className="primary big">
            Save settings
          </button>
        </div>
      </form>
      <CheckoutSettings
        settings={settings}
        currency={currency}
        onSaved={() => {
          setError(null);
          setMessage('Checkout settings saved.');
        }}
      />
      <PrintingSettings
        settings={settings}
        onSaved={() => {
          setError(null);
          setMessage('Printing settings saved.');
        }}
      />
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
            setMessage(null);
            client.call('credentials.setApiKey', { apiKey }).then(
              ({ keyCheck }) => {
                setApiKey('');
                setMessage(keyCheck);
              },
              (caught: unknown) => setError(describeError(caught)),
            );
          }}
        >
          <label>
            API key
            <input type="password" autoComplete="off" placeholder="sk_test_… or sk_live_…" value={apiKey} onChange={(event) => setApiKey(event.target.value)} />
          </label>
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
        <p>Deletes every order, payment and setting kept here, and the sign-in, as for a new terminal. {settings.managerPinSet ? 'Needs the manager PIN.' : ''}</p>
        <div className="dialog-actions">
          <button type="button" className="danger big" onClick={() => setResetting(true)}>
            Reset this terminal
          </button>
        </div>
      </section>
      <ErrorNote message={error} />
      <StatusNote message={message} />
      {resetting ? <ResetDialog managerPinSet={settings.managerPinSet} onClose={() => setResetting(false)} onDone={onReset} /> : null}
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
    </div>
  );
}
