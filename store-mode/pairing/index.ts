// Pairing a new till into the store by a short code: the code, the listener on a till of the store, the joiner.
export { formatPairingCode, newPairingCode, parsePairingCode, PairingCodeError, PAIRING_CODE_DIGITS } from './code';
export { pairWithStore, PairingError, type PairingFailure, type PairWithStoreOptions, type StoreJoined } from './join';
export {
  openPairingListener,
  type PairingCounts,
  type PairingListener,
  type PairingListenerOptions,
  type PairingOutcome,
} from './listener';
