import { useState } from 'react';
import type { StaffMember } from '../../bridge/staff/contract';
import { ROLE_NAMES } from '../../bridge/staff/roles';
import { describeError, useBridge, useShortcuts } from '../lib/hooks';
import { useSession } from '../lib/session';

/**
 * Who is at the till, and the lock: the next person (or the same one) signs in with their PIN,
 * and the ticket being rung up stays on screen for them.
 */
export function StaffBar({ member }: { member: StaffMember }) {
  const client = useBridge();
  const { apply } = useSession();
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);

  const lock = async () => {
    if (busy) return;
    setBusy(true);
    setError(null);
    try {
      apply(await client.call('staff.lock', {}));
    } catch (caught) {
      setError(describeError(caught));
      setBusy(false);
    }
  };
  useShortcuts({ 'Alt+L': () => void lock() });

  return (
    <div className="staff-bar" data-testid="staff-bar">
      <span className="staff-who">
        <span className="staff-name">{member.name}</span>
        <span className="staff-role">{ROLE_NAMES[member.role]}</span>
      </span>
      <button type="button" className="lock-button" aria-keyshortcuts="Alt+L" disabled={busy} onClick={() => void lock()} title="Lock the till: the next person signs in with their PIN">
        Lock / Switch staff <kbd>Alt+L</kbd>
      </button>
      {error ? (
        <span className="staff-error" role="alert">
          {error}
        </span>
      ) : null}
    </div>
  );
}
