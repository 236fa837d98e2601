// Pairing a till into the store by a short code (docs/store-mode.md, "Built: pairing by a code"). On a
// till of the store, a manager asks for a code: this till opens its pairing listener for 5 minutes, one
// use, 3 wrong codes at most (store-mode/pairing/listener.ts). On the new till, a manager types the
// listener's address and the code: the PAKE hands over the store secret, which goes to the secret
// store under --store-secret-ref, and store mode starts there. The code and the secret never reach a log.
import { networkInterfaces } from 'node:os';
import { PAIRING_CODE_LIFETIME_MS, type StoreModeJoined, type StoreModePairing, type StoreModePairingCode } from '../../../bridge/store-mode/contract';
import type { Clock } from '../../../common/clock';
import type { Logger } from '../../../common/log';
import { joinAddress, splitAddress } from '../../../store-mode/address';
import { formatPairingCode, newPairingCode, parsePairingCode, PairingCodeError } from '../../../store-mode/pairing/code';
import { pairWithStore, PairingError } from '../../../store-mode/pairing/join';
import { openPairingListener, type PairingListener, type PairingOutcome } from '../../../store-mode/pairing/listener';
import { parseStoreSecret, StoreSecretError } from '../../../store-mode/secret';
import type { Store } from '../../../store/index';
import type { SecretStore } from '../../../sync/secret-store';
import type { TerminalConfig } from '../../config/schema';
import { CoreError } from '../errors';
import type { Act, StaffDesk } from '../staff/desk';

const iso = (ms: number): string => new Date(ms).toISOString();

export interface PairingDeps {
  store: Store;
  staff: StaffDesk;
  clock: Clock;
  logger: Logger;
  secrets: SecretStore;
  storeMode: TerminalConfig['storeMode'];
  /** This till's name in the store, and its store secret's text; null while it is not in a store. */
  inStore: () => { tillName: string; storeSecret: string } | null;
  /** Store mode starts with the secret a pairing brought (the link, as at start-up). */
  startStoreMode: (storeSecret: string) => Promise<void>;
  /** A code was used, expired or taken back: the screens showing it ask again. */
  changed?: () => void;
  /**
   * A kitchen display: nobody signs in there, so the code itself authorizes its join. It exists only
   * because a manager asked for it on a till of the store, and works once, for 5 minutes, 3 wrong tries.
   */
  joinsByCodeAlone?: boolean;
}

/** The pairing listener's port: the store address's next one (IT opens both), or any port for a store address on port 0 (tests). */
export function pairingPort(listenPort: number): number {
  return listenPort === 0 ? 0 : listenPort + 1;
}

/** The address a person types on the new till: the configured host, or this machine's first LAN address when it listens on all of them. */
function shownHost(host: string): string {
  if (host !== '0.0.0.0' && host !== '::' && host !== '') return host;
  for (const addresses of Object.values(networkInterfaces())) {
    const lan = addresses?.find((address) => address.family === 'IPv4' && !address.internal);
    if (lan) return lan.address;
  }
  return '127.0.0.1';
}

type LastOutcome = NonNullable<StoreModePairing['last']>['outcome'];
const LAST_OUTCOME: Record<PairingOutcome['kind'], LastOutcome> = { paired: 'paired', expired: 'expired', tooManyWrongCodes: 'tooManyWrongCodes', closed: 'cancelled' };

export class PairingDesk {
  #listener: PairingListener | null = null;
  #last: StoreModePairing['last'] = null;
  #joining = false;
  /** Codes are opened one after the other: the listener's port is one. */
  #opening: Promise<unknown> = Promise.resolve();

  constructor(private readonly deps: PairingDeps) {}

  /** The code shown now (without the code) and how the last one ended. */
  status(): StoreModePairing {
    const listener = this.#listener;
    return {
      open: listener === null ? null : { address: joinAddress({ host: shownHost(listener.address.host), port: listener.address.port }), expiresAt: iso(listener.expiresAt), wrongCodes: listener.counts().wrongCode },
      last: this.#last,
    };
  }

  /** A new code for a new till ('store.pair'); the one shown before, if any, stops working. Two asked at once: the later one stands. */
  openCode(act: Act): Promise<StoreModePairingCode> {
    const opened = this.#opening.then(() => this.#openCode(act));
    this.#opening = opened.catch(() => undefined);
    return opened;
  }

  async #openCode(act: Act): Promise<StoreModePairingCode> {
    const { staff, storeMode, store, logger, clock } = this.deps;
    const approvedBy = staff.require(act, 'store.pair');
    this.#requireStoreMode();
    const inStore = this.deps.inStore();
    if (inStore === null) throw new CoreError('conflict', 'This till is not in a store yet: pair it first, with a code shown on a till of the store.');
    await this.#closeListener();
    if (storeMode.listen === '') throw new CoreError('conflict', 'Store mode has no address to listen on (--store-listen).');
    const { host, port } = storeMode.listen;
    const code = newPairingCode();
    const listener = await openPairingListener({ host, port: pairingPort(port), code, tillName: inStore.tillName, storeSecret: parseStoreSecret(inStore.storeSecret), expiresInMs: PAIRING_CODE_LIFETIME_MS, logger }).catch(
      (error: unknown) => {
        const reason = (error as NodeJS.ErrnoException).code;
        if (reason !== 'EADDRINUSE' && reason !== 'EACCES' && reason !== 'EADDRNOTAVAIL') throw error;
        throw new CoreError('unavailable', `This till cannot listen for a new till on ${joinAddress({ host, port: pairingPort(port) })} (${reason === 'EADDRINUSE' ? 'another program uses that port' : 'the system refused it'}): IT frees that port, the store address's next one (docs/it.md).`);
      },
    );
    this.#listener = listener;
    store.cashier.recordAudit(act.by.id, 'store.pairing_code', { address: joinAddress(listener.address), expiresAt: iso(listener.expiresAt), approvedBy });
    void listener.outcome.then((outcome) => {
      if (this.#listener === listener) this.#listener = null;
      this.#last = { outcome: LAST_OUTCOME[outcome.kind], tillName: outcome.kind === 'paired' ? outcome.tillName : null, at: iso(clock.now()) };
      if (outcome.kind === 'paired') {
        logger.info({ tillName: outcome.tillName }, 'store mode: a till joined the store with this till\'s pairing code');
        store.cashier.recordAudit(act.by.id, 'store.paired', { tillName: outcome.tillName });
      }
      this.deps.changed?.();
    }).catch((error: unknown) => logger.warn({ err: error }, 'store mode: recording the end of a pairing failed'));
    return {
      code: formatPairingCode(code),
      address: joinAddress({ host: shownHost(listener.address.host), port: listener.address.port }),
      expiresAt: iso(listener.expiresAt),
      tillName: inStore.tillName,
    };
  }

  /** Takes the shown code back. */
  async cancel(): Promise<StoreModePairing> {
    await this.#closeListener();
    return this.status();
  }

  /**
   * Joins the store with a code another till shows, on a till in store mode without a secret yet: a
   * register asks for 'store.pair'; a kitchen display (joinsByCodeAlone) for the code only.
   */
  async join(payload: { address: string; code: string }, act: Act): Promise<StoreModeJoined> {
    const { staff, storeMode, secrets, store, logger, joinsByCodeAlone = false } = this.deps;
    const approvedBy = joinsByCodeAlone ? null : staff.require(act, 'store.pair');
    this.#requireStoreMode();
    if (this.deps.inStore() !== null) throw new CoreError('conflict', 'This till is already in the store.');
    if (storeMode.secretRef === '') throw new CoreError('conflict', 'This till has nowhere to keep the store secret: IT sets --store-secret-ref (docs/it.md).');
    let target: { host: string; port: number };
    try {
      target = splitAddress(payload.address);
    } catch {
      throw new CoreError('invalid_command', 'The address is the one the other till shows, e.g. 192.168.1.20:7444.', [{ path: 'address', message: 'The address is the one the other till shows, e.g. 192.168.1.20:7444.' }]);
    }
    let code: string;
    try {
      code = parsePairingCode(payload.code);
    } catch (error) {
      if (!(error instanceof PairingCodeError)) throw error;
      throw new CoreError('invalid_command', error.message, [{ path: 'code', message: error.message }]);
    }
    if (this.#joining) throw new CoreError('conflict', 'This till is already joining the store: wait for it to finish.');
    this.#joining = true;
    try {
      const tillName = storeMode.tillName || 'A new till';
      const joined = await pairWithStore({ ...target, code, tillName }).catch((error: unknown) => {
        if (!(error instanceof PairingError)) throw error;
        const path = error.reason === 'wrongCode' ? 'code' : error.reason === 'unreachable' ? 'address' : null;
        throw new CoreError(error.reason === 'unreachable' ? 'unavailable' : 'conflict', error.message, path === null ? undefined : [{ path, message: error.message }]);
      });
      const secretText = Buffer.from(joined.storeSecret).toString('base64');
      try {
        parseStoreSecret(secretText);
      } catch (error) {
        if (!(error instanceof StoreSecretError)) throw error;
        throw new CoreError('conflict', `${joined.listenerTillName} sent a store secret this till cannot use: ${error.message}`);
      }
      await secrets.setMany({ [storeMode.secretRef]: secretText });
      store.cashier.recordAudit(act.by.id, 'store.joined', { pairedWith: joined.listenerTillName, approvedBy });
      logger.info({ pairedWith: joined.listenerTillName }, 'store mode: this till joined the store by a pairing code');
      await this.deps.startStoreMode(secretText);
      this.deps.changed?.();
      return {
        pairedWith: joined.listenerTillName,
        sentence: joinsByCodeAlone
          ? `This display is in the store now (paired with ${joined.listenerTillName}): the tills' orders show here as they reach it.`
          : `This till is in the store now (paired with ${joined.listenerTillName}): it sees the other tills' orders as they reach it.`,
      };
    } finally {
      this.#joining = false;
    }
  }

  /** Closes the listener (a stop, or a new code). */
  async stop(): Promise<void> {
    await this.#closeListener();
  }

  #requireStoreMode(): void {
    if (this.deps.storeMode.mode === 'off') throw new CoreError('unavailable', 'Store mode is off on this till: IT turns it on (--store-mode on, docs/it.md) before it can pair.');
  }

  async #closeListener(): Promise<void> {
    const listener = this.#listener;
    this.#listener = null;
    await listener?.close();
  }
}
