// Who answers at a configured peer address: a mutual TLS 1.3 handshake with this till's certificate,
// then the peer's certificate is checked as the feed checks every one (store CA by TLS, till id = key
// hash, name pin) and the connection closed. The puller needs the till id to ask for that till's log.
import { connect, type TLSSocket } from 'node:tls';
import { splitAddress } from './address';
import type { TillIdentity } from './identity';
import { checkPeerCertificate } from './peer-certificate';
import { handshakeRefusal, type RefusalReason } from './refusals';
import type { TillPins } from './till-pins';

export interface PeerTill {
  tillId: string;
  tillName: string;
}

/** The peer answered but was refused: its certificate, or the handshake. */
export class PeerRefusedError extends Error {
  constructor(readonly reason: RefusalReason) {
    super(`the peer was refused: ${reason}`);
    this.name = 'PeerRefusedError';
  }
}

export function identifyPeer(options: { identity: TillIdentity; pins: TillPins; peer: string; timeoutMs?: number; signal?: AbortSignal }): Promise<PeerTill> {
  const { host, port } = splitAddress(options.peer);
  return new Promise((resolve, reject) => {
    const socket: TLSSocket = connect({
      ...options.identity.tls,
      host,
      port,
      minVersion: 'TLSv1.3',
      maxVersion: 'TLSv1.3',
      // The chain is checked by TLS against the store CA; the name is a till id, checked below.
      checkServerIdentity: () => undefined,
    });
    const finish = (settle: () => void): void => {
      clearTimeout(timer);
      options.signal?.removeEventListener('abort', onAbort);
      socket.destroy();
      settle();
    };
    const onAbort = (): void => finish(() => reject(new Error('stopped')));
    const timer = setTimeout(() => finish(() => reject(new Error(`no TLS handshake with ${options.peer} within ${options.timeoutMs ?? 10_000} ms`))), options.timeoutMs ?? 10_000);
    options.signal?.addEventListener('abort', onAbort, { once: true });
    socket.once('secureConnect', () => {
      const check = checkPeerCertificate(socket.getPeerCertificate().raw, options.pins);
      finish(() => (check.ok ? resolve({ tillId: check.tillId, tillName: check.tillName }) : reject(new PeerRefusedError(check.reason))));
    });
    socket.once('error', (error: NodeJS.ErrnoException) => {
      const refusal = error.code === undefined ? null : handshakeRefusal(error.code);
      // A refused connection or an unreachable host is not a refusal: the peer is simply not there.
      const refused = refusal !== null && refusal !== 'handshakeFailed' ? new PeerRefusedError(refusal) : error;
      finish(() => reject(refused));
    });
  });
}
