// A kitchen display in store mode without its store secret yet (docs/kitchen-display.md, "Joining the
// store by a code"): the whole screen is the store's join form, the address and the code a manager
// shows on a till of the store. No one signs in here: the code is the manager's authorization (it
// exists only because a manager asked for it there, for 5 minutes, one pairing, 3 wrong tries).
import { JoinStoreForm } from '../store-mode/Pairing';

export function KitchenJoin({ onJoined }: { onJoined: (sentence: string) => void }) {
  return (
    <div className="kds kds-unpaired" data-testid="kitchen-join">
      <main className="kds-join">
        <h1>Join the store</h1>
        <JoinStoreForm
          className="kds-join-form"
          intro="This kitchen display is not in the store yet. On a till of the store, a manager opens Sync → Store → Pair a new till: type here the address and the code it shows. No sign-in is needed on this screen."
          approval={null}
          onJoined={onJoined}
          autoFocus
        />
      </main>
    </div>
  );
}
