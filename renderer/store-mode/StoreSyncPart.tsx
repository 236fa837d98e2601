// The sync panel's "Store" part in store mode: each other till this one pulls from, when it was last
// heard and how many of its orders the cloud does not have yet; a plain sentence when one has gone
// quiet holding such orders; the connections refused, by reason; and pairing a new till by a code (or,
// on a till not in a store yet, joining one with a code). Nothing when store mode is off.
import { useState } from 'react';
import type { StoreModePeer, StoreModeStatus } from '../../bridge/store-mode/contract';
import { ApprovedActionDialog } from '../components/ApprovedActionDialog';
import { ErrorNote } from '../components/Dialog';
import { useBridge } from '../lib/hooks';
import { formatAge } from '../lib/format';
import { JoinStore, PairTill } from './Pairing';
import { STORE_REFRESH_MS, useStoreModeRead } from './polling';
import { problemWords, refusalSentences, tillName } from './till-words';

/** A till not heard from for longer than this has gone quiet. */
export const QUIET_AFTER_MS = 2 * 60_000;

function peerName(peer: StoreModePeer): string {
  // A configured peer not heard yet has its address; a till known from its log, its id.
  return peer.tillId !== null ? tillName(peer.name, peer.tillId) : (peer.address ?? 'A till');
}

const ordersCount = (count: number) => `${count} ${count === 1 ? 'order' : 'orders'}`;

/** How this till knows the peer's address: IT's list, or the till's own advertisement on the LAN. */
const FOUND: Record<NonNullable<StoreModePeer['source']>, string> = { configured: 'in the peer list', discovered: 'found on the LAN' };

/** "Bar: not heard from for 6 min, holds 4 orders the cloud does not have. …"; null while it is not quiet or owes nothing. */
function quietSentence(peer: StoreModePeer, now: number): string | null {
  if (peer.lastHeardAt === null || peer.ordersNotInCloud === 0) return null;
  const silentMs = now - Date.parse(peer.lastHeardAt);
  if (silentMs <= QUIET_AFTER_MS) return null;
  const then = peer.adoptionRefusal === null && peer.adoptableOrders > 0 ? 'Adopt them on this till?' : 'They reach the cloud when that till is back on.';
  return `${peerName(peer)}: not heard from for ${formatAge(silentMs)}, holds ${ordersCount(peer.ordersNotInCloud)} the cloud does not have. ${then}`;
}

/**
 * A quiet till's orders taken over here (storeMode.adoptTill, a manager's PIN): offered once the core
 * says they may be (the till has not answered for 2 minutes) and there is something to take.
 */
function AdoptOrders({ peer }: { peer: StoreModePeer }) {
  const client = useBridge();
  const [asking, setAsking] = useState(false);
  const [done, setDone] = useState<string | null>(null);
  if (peer.tillId === null || peer.adoptionRefusal !== null || peer.adoptableOrders === 0) {
    return done ? <p role="status">{done}</p> : null;
  }
  const name = peerName(peer);
  const tillId = peer.tillId;
  return (
    <>
      <button type="button" className="secondary" onClick={() => setAsking(true)}>
        {`Adopt ${name}’s ${ordersCount(peer.adoptableOrders)}`}
      </button>
      {asking ? (
        <ApprovedActionDialog
          title={`Adopt ${name}’s orders?`}
          message={`This till takes over ${ordersCount(peer.adoptableOrders)} of ${name}: the open ones and those the cloud does not have. It sends them to the cloud (each once, even if ${name} sent some before it went quiet) and they are changed here from now on. If ${name} comes back, it gives them up.`}
          permission="store.adopt"
          perform={async (approval) => {
            const adopted = await client.call('storeMode.adoptTill', { tillId, ...approval });
            setDone(adopted.sentence);
          }}
          keepLabel="Not now"
          confirmLabel="Adopt them"
          onClose={() => setAsking(false)}
          onDone={() => setAsking(false)}
        />
      ) : null}
    </>
  );
}

function PeerItem({ peer, now }: { peer: StoreModePeer; now: number }) {
  const heard = peer.lastHeardAt === null ? 'not heard from yet' : `last heard ${formatAge(Math.max(0, now - Date.parse(peer.lastHeardAt)))} ago`;
  const owed = peer.ordersNotInCloud === 0 ? 'the cloud has all its orders' : `${ordersCount(peer.ordersNotInCloud)} not in the cloud yet`;
  return (
    <li data-testid="store-peer">
      <div>
        <strong>{peerName(peer)}</strong>
        <p className="muted">{[heard, owed, peer.source === null ? null : FOUND[peer.source]].filter((part) => part !== null).join(' · ')}</p>
        {peer.problem ? <p className="muted">{problemWords(peer.problem)}</p> : null}
        <AdoptOrders peer={peer} />
        {refusalSentences(peer.refusals).map((sentence) => (
          <p key={sentence} data-testid="store-refusal">
            {sentence}
          </p>
        ))}
      </div>
    </li>
  );
}

function StoreStatus({ status, now, error, joined }: { status: StoreModeStatus; now: number; error: string | null; joined: string | null }) {
  const quiet = status.peers.map((peer) => quietSentence(peer, now)).filter((sentence) => sentence !== null);
  return (
    <section aria-label="Store" data-testid="store-sync">
      <h3>Store</h3>
      <ErrorNote message={error} />
      {joined ? (
        <p role="status" data-testid="store-joined">
          {joined}
        </p>
      ) : null}
      {status.till ? <p className="muted">{`This till: ${status.till.name}, at ${status.till.listen}.`}</p> : null}
      <PairTill pairing={status.pairing} />
      {quiet.map((sentence) => (
        <p key={sentence} className="dialog-message" role="alert" data-testid="store-quiet-till">
          {sentence}
        </p>
      ))}
      {refusalSentences(status.refusals).map((sentence) => (
        <p key={sentence} data-testid="store-refusal">
          {sentence}
        </p>
      ))}
      {status.peers.length === 0 ? (
        <p className="muted">No other till is configured or found on the LAN.</p>
      ) : (
        <ul className="dead-letters">
          {status.peers.map((peer) => (
            <PeerItem key={peer.address ?? peer.tillId} peer={peer} now={now} />
          ))}
        </ul>
      )}
    </section>
  );
}

/** Store mode is on here, but this till is not in a store yet: a manager pairs it with a code. */
function NotInStoreYet({ onJoined }: { onJoined: (sentence: string) => void }) {
  return (
    <section aria-label="Store" data-testid="store-sync">
      <h3>Store</h3>
      <JoinStore onJoined={onJoined} />
    </section>
  );
}

/** Store mode is on here (paired or not): the part is shown, and the status asked again. */
const storeModeShown = (status: StoreModeStatus) => status.mode === 'on' || status.mode === 'unpaired';

/**
 * The part, shown only when store mode is on here (paired or not), asked again every 2 s while the
 * panel is open (a pairing turns 'unpaired' into 'on'). One read decides and feeds it: the status is
 * asked once when the panel opens, and with store mode off, never again.
 */
export function StoreSyncPart() {
  const { data: status, receivedAt: now, error, reload } = useStoreModeRead('storeMode.status', STORE_REFRESH_MS, storeModeShown);
  // Said once the till has joined, above the store it now sees.
  const [joined, setJoined] = useState<string | null>(null);
  // Nothing until the first answer (store mode may be off): a failed first read is asked again in 2 s.
  if (!status || now === null) return null;
  if (status.mode === 'on') return <StoreStatus status={status} now={now} error={error} joined={joined} />;
  return status.mode === 'unpaired' ? (
    <NotInStoreYet
      onJoined={(sentence) => {
        setJoined(sentence);
        reload();
      }}
    />
  ) : null;
}
