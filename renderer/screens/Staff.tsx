import { useCallback, useEffect, useId, useRef, useState, type FormEvent } from 'react';
import type { StaffMember } from '../../bridge/staff/contract';
import { assignableRoles, ROLE_NAMES, weakPinReason, type Role } from '../../bridge/staff/roles';
import { Dialog, ErrorNote, StatusNote } from '../components/Dialog';
import { describedBy, FieldError } from '../components/FieldError';
import { formatTime } from '../lib/format';
import { describeError, useBridge } from '../lib/hooks';
import { splitRefusal } from '../lib/issues';
import { useTimePlace } from '../lib/location-time';
import { useSession } from '../lib/session';
import { StaffNameField } from '../components/StaffNameField';

type Field = 'name' | 'role' | 'pin' | 'repeat';
type Errors = Partial<Record<Field, string>>;
const CORE_FIELDS = ['name', 'role', 'pin'] as const;

/** The staff list, asked again when the core says it changed (the 'staff.session' event) or after a change made here. */
function useStaffList() {
  const client = useBridge();
  const [staff, setStaff] = useState<StaffMember[] | null>(null);
  const [error, setError] = useState<string | null>(null);
  const generation = useRef(0);
  const reload = useCallback(() => {
    const mine = ++generation.current;
    client.call('staff.list', {}).then(
      (value) => {
        if (mine !== generation.current) return;
        setStaff(value);
        setError(null);
      },
      (caught: unknown) => mine === generation.current && setError(describeError(caught)),
    );
  }, [client]);
  useEffect(() => {
    reload();
    const off = client.on('staff.session', reload);
    return () => {
      off();
      generation.current += 1;
    };
  }, [client, reload]);
  return { staff, error, reload };
}

/** A new PIN typed twice: what is wrong with it, said before the core is asked. */
function checkPin(pin: string, repeat: string, errors: Errors): void {
  const weak = weakPinReason(pin);
  if (weak) errors.pin = weak;
  else if (repeat !== pin) errors.repeat = 'The two PINs are not the same. Type it again.';
}

function PinFields({ pin, repeat, setPin, setRepeat, errors, ids, label }: { pin: string; repeat: string; setPin: (v: string) => void; setRepeat: (v: string) => void; errors: Errors; ids: Record<'pin' | 'repeat', string>; label: string }) {
  return (
    <>
      <label>
        {label}
        <input type="password" inputMode="numeric" autoComplete="new-password" maxLength={8} value={pin} onChange={(event) => setPin(event.target.value)} {...describedBy(ids.pin, errors.pin ?? null)} />
      </label>
      <FieldError id={ids.pin} message={errors.pin ?? null} />
      <label>
        {label} again
        <input type="password" inputMode="numeric" autoComplete="new-password" maxLength={8} value={repeat} onChange={(event) => setRepeat(event.target.value)} {...describedBy(ids.repeat, errors.repeat ?? null)} />
      </label>
      <FieldError id={ids.repeat} message={errors.repeat ?? null} />
    </>
  );
}

function RoleField({ value, roles, onChange, error, errorId }: { value: Role; roles: Role[]; onChange: (role: Role) => void; error: string | null; errorId: string }) {
  return (
    <>
      <label>
        Role
        <select value={value} onChange={(event) => onChange(event.target.value as Role)} {...describedBy(errorId, error)}>
          {roles.map((role) => (
            <option key={role} value={role}>
              {ROLE_NAMES[role]}
            </option>
          ))}
        </select>
      </label>
      <FieldError id={errorId} message={error} />
    </>
  );
}

/** Adding staff and changing them: a manager adds and changes cashiers, the owner anyone. Staff IT provisioned are changed in the configuration. */
export function Staff() {
  const client = useBridge();
  const { session } = useSession();
  const place = useTimePlace();
  const me = session?.signedIn ?? null;
  const roles = me ? assignableRoles(me.role) : [];
  const { staff, error: loadError, reload } = useStaffList();
  const [editing, setEditing] = useState<StaffMember | null>(null);
  const [notice, setNotice] = useState<string | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [busyId, setBusyId] = useState<string | null>(null);

  const setActive = async (member: StaffMember, active: boolean) => {
    setBusyId(member.id);
    setError(null);
    setNotice(null);
    try {
      const changed = await client.call('staff.update', { id: member.id, active });
      setNotice(active ? `${changed.name} can sign in again.` : `${changed.name} is deactivated: their PIN no longer signs in.`);
      reload();
    } catch (caught) {
      setError(describeError(caught));
    } finally {
      setBusyId(null);
    }
  };

  return (
    <div className="staff-screen">
      <section className="card staff-list" aria-label="Staff">
        <h2>Staff</h2>
        {session?.pinGuessing ? (
          <p className="warning-note" role="status" data-testid="pin-guessing">
            {session.pinGuessing.wrongPins} wrong PINs since {formatTime(session.pinGuessing.since, place)}: someone may be guessing PINs. Each one is
            in the audit log; change any PIN you think is known.
          </p>
        ) : null}
        <ErrorNote message={loadError} />
        <ErrorNote message={error} />
        <StatusNote message={notice} testId="staff-notice" />
        {staff ? (
          <table className="table">
            <thead>
              <tr>
                <th scope="col">Name</th>
                <th scope="col">Role</th>
                <th scope="col">Status</th>
                <th scope="col">Actions</th>
              </tr>
            </thead>
            <tbody>
              {staff.map((member) => {
                const mayChange = !member.provisioned && roles.includes(member.role);
                return (
                  <tr key={member.id} data-staff-id={member.id} data-testid="staff-row" className={member.active ? '' : 'inactive'}>
                    <td>
                      {member.name}
                      {member.id === me?.id ? <span className="muted"> (you)</span> : null}
                      {member.pinShared ? (
                        <>
                          {' '}
                          <span className="badge badge-pin-shared" data-testid="pin-shared">
                            PIN shared — give a new PIN
                          </span>
                        </>
                      ) : null}
                    </td>
                    <td>{ROLE_NAMES[member.role]}</td>
                    <td>
                      <span className={`badge ${member.active ? 'badge-fulfilled' : 'badge-cancelled'}`}>{member.active ? 'Active' : 'Inactive'}</span>
                      {member.provisioned ? <span className="badge badge-it">Set by IT</span> : null}
                    </td>
                    <td className="row-actions">
                      {member.provisioned ? (
                        <span className="muted">Changed in the configuration</span>
                      ) : !mayChange ? (
                        <span className="muted">Only the owner changes a {ROLE_NAMES[member.role].toLowerCase()}</span>
                      ) : (
                        <>
                          <button type="button" className="secondary" aria-label={`Change ${member.name}`} onClick={() => setEditing(member)}>
                            Change
                          </button>
                          <button
                            type="button"
                            className={member.active ? 'danger' : 'secondary'}
                            aria-label={`${member.active ? 'Deactivate' : 'Reactivate'} ${member.name}`}
                            disabled={busyId === member.id}
                            onClick={() => void setActive(member, !member.active)}
                          >
                            {member.active ? 'Deactivate' : 'Reactivate'}
                          </button>
                        </>
                      )}
                    </td>
                  </tr>
                );
              })}
            </tbody>
          </table>
        ) : loadError ? null : (
          <p className="muted">Loading the staff…</p>
        )}
      </section>
      {roles.length > 0 ? (
        <AddStaff
          roles={roles}
          onAdded={(member) => {
            setError(null);
            setNotice(`${member.name} is added as ${ROLE_NAMES[member.role].toLowerCase()}: they sign in with their PIN.`);
            reload();
          }}
        />
      ) : null}
      {editing ? (
        <EditStaff
          member={editing}
          roles={roles}
          onClose={() => setEditing(null)}
          onSaved={(member) => {
            setEditing(null);
            setError(null);
            setNotice(`${member.name}: saved.`);
            reload();
          }}
        />
      ) : null}
    </div>
  );
}

/** What the add and change forms hold: name, role, the new PIN twice, their refusals and the form's state. */
function useStaffForm(initialName: string, initialRole: Role) {
  const [name, setName] = useState(initialName);
  const [role, setRole] = useState<Role>(initialRole);
  const [pin, setPin] = useState('');
  const [repeat, setRepeat] = useState('');
  const [errors, setErrors] = useState<Errors>({});
  const [note, setNote] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const ids = { name: useId(), role: useId(), pin: useId(), repeat: useId() };
  return { name, setName, role, setRole, pin, setPin, repeat, setRepeat, errors, setErrors, note, setNote, busy, setBusy, ids };
}

function AddStaff({ roles, onAdded }: { roles: Role[]; onAdded: (member: StaffMember) => void }) {
  const client = useBridge();
  const { name, setName, role, setRole, pin, setPin, repeat, setRepeat, errors, setErrors, note, setNote, busy, setBusy, ids } = useStaffForm('', roles[0] ?? 'cashier');
  const formRef = useRef<HTMLFormElement>(null);
  useEffect(() => formRef.current?.querySelector<HTMLElement>('[aria-invalid="true"]')?.focus(), [errors]);

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    setNote(null);
    const found: Errors = {};
    if (name.trim() === '') found.name = 'Give a name: it is on their orders, payments and the report.';
    checkPin(pin, repeat, found);
    setErrors(found);
    if (Object.keys(found).length > 0) return;
    setBusy(true);
    try {
      const member = await client.call('staff.create', { name: name.trim(), role, pin });
      setName('');
      setPin('');
      setRepeat('');
      onAdded(member);
    } catch (caught) {
      const refusal = splitRefusal(caught, CORE_FIELDS);
      setErrors(refusal.fields);
      setNote(refusal.note);
    } finally {
      setBusy(false);
    }
  };

  return (
    <form className="card add-staff" aria-label="Add a staff member" onSubmit={(event) => void submit(event)} ref={formRef} noValidate>
      <h2>Add a staff member</h2>
      <StaffNameField label="Name" value={name} onChange={setName} error={errors.name ?? null} errorId={ids.name} />
      <RoleField value={role} roles={roles} onChange={setRole} error={errors.role ?? null} errorId={ids.role} />
      <PinFields pin={pin} repeat={repeat} setPin={setPin} setRepeat={setRepeat} errors={errors} ids={ids} label="PIN" />
      <p className="muted field-hint">4 to 8 digits, not an easy one (1111, 1234) and not someone else&apos;s. They can be told it once; nobody can read it back.</p>
      <ErrorNote message={note} />
      <div className="dialog-actions">
        <button type="submit" className="primary big" disabled={busy}>
          Add staff member
        </button>
      </div>
    </form>
  );
}

function EditStaff({ member, roles, onClose, onSaved }: { member: StaffMember; roles: Role[]; onClose: () => void; onSaved: (member: StaffMember) => void }) {
  const client = useBridge();
  const { name, setName, role, setRole, pin, setPin, repeat, setRepeat, errors, setErrors, note, setNote, busy, setBusy, ids } = useStaffForm(member.name, member.role);

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    setNote(null);
    const found: Errors = {};
    if (name.trim() === '') found.name = 'Give a name: it is on their orders, payments and the report.';
    if (pin !== '' || repeat !== '') checkPin(pin, repeat, found);
    setErrors(found);
    if (Object.keys(found).length > 0) return;
    const changes = {
      ...(name.trim() !== member.name ? { name: name.trim() } : {}),
      ...(role !== member.role ? { role } : {}),
      ...(pin !== '' ? { pin } : {}),
    };
    if (Object.keys(changes).length === 0) {
      onClose();
      return;
    }
    setBusy(true);
    try {
      onSaved(await client.call('staff.update', { id: member.id, ...changes }));
    } catch (caught) {
      const refusal = splitRefusal(caught, CORE_FIELDS);
      setErrors(refusal.fields);
      setNote(refusal.note);
      setBusy(false);
    }
  };

  return (
    <Dialog title={`Change ${member.name}`} onClose={onClose}>
      <form onSubmit={(event) => void submit(event)} noValidate>
        <StaffNameField label="Name" value={name} onChange={setName} error={errors.name ?? null} errorId={ids.name} focus={{ 'data-autofocus': true }} />
        <RoleField value={role} roles={roles.includes(member.role) ? roles : [member.role, ...roles]} onChange={setRole} error={errors.role ?? null} errorId={ids.role} />
        <PinFields pin={pin} repeat={repeat} setPin={setPin} setRepeat={setRepeat} errors={errors} ids={ids} label="New PIN" />
        <p className="muted field-hint">Leave the PIN empty to keep theirs.</p>
        <ErrorNote message={note} />
        <div className="dialog-actions">
          <button type="button" className="secondary big" onClick={onClose}>
            Cancel
          </button>
          <button type="submit" className="primary big" disabled={busy}>
            Save
          </button>
        </div>
      </form>
    </Dialog>
  );
}
