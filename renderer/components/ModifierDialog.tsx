import { useId, useState, type FormEvent, type KeyboardEvent } from 'react';
import type { MenuItem, Modifier, ModifierGroup } from '../../bridge/contract';
import { money } from '../lib/format';
import {
  canChoose,
  chooseInGroup,
  clearGroup,
  extrasOf,
  groupModifiers,
  groupRule,
  inMenuOrder,
  isSingleChoice,
  MAX_NOTE_LENGTH,
  missingInGroup,
  readNote,
  toggleExtra,
  unsatisfiedGroups,
} from '../lib/modifiers';
import type { LineChoice } from '../lib/ticket';
import { Dialog } from './Dialog';
import { describedBy, FieldError } from './FieldError';

function optionLabel(modifier: Modifier, currency: string): string {
  return modifier.price === 0 ? modifier.name : `${modifier.name} +${money(modifier.price, currency)}`;
}

/** "Size, Milk and Extras". */
function listOf(names: string[]): string {
  return names.length < 2 ? names.join('') : `${names.slice(0, -1).join(', ')} and ${names.at(-1)}`;
}

/** A group says its rule once: what is still missing ("Required: choose 1") until it is met, then the rule ("Choose 1"). */
function GroupChoices({ group, item, chosen, currency, onChange, first }: { group: ModifierGroup; item: MenuItem; chosen: string[]; currency: string; onChange: (chosen: string[]) => void; first: boolean }) {
  const missing = missingInGroup(group, chosen);
  const single = isSingleChoice(group);
  const options = groupModifiers(item, group);
  return (
    <fieldset className="choice-group" data-group-id={group.id}>
      <legend>
        {group.name} <span className={missing ? 'choice-rule choice-missing' : 'choice-rule'}>{missing ?? groupRule(group)}</span>
      </legend>
      <div className="choices">
        {single && group.min === 0 ? (
          <label className="choice">
            <input type="radio" name={group.id} checked={!options.some((m) => chosen.includes(m.id))} onChange={() => onChange(clearGroup(chosen, group))} />
            None
          </label>
        ) : null}
        {options.map((modifier, index) => (
          <label key={modifier.id} className="choice">
            <input
              type={single ? 'radio' : 'checkbox'}
              name={group.id}
              checked={chosen.includes(modifier.id)}
              disabled={!canChoose(group, chosen, modifier.id)}
              onChange={() => onChange(chooseInGroup(chosen, group, modifier.id))}
              {...(first && index === 0 ? { 'data-autofocus': true } : {})}
            />
            {optionLabel(modifier, currency)}
          </label>
        ))}
      </div>
    </fieldset>
  );
}

/**
 * The chooser for one line: each modifier group with its rule, the free extras, a note for the
 * kitchen. "Add" (or "Save" when changing a line) stays disabled until every required group is
 * satisfied, and says which are not.
 */
export function ModifierDialog({
  item,
  currency,
  initial,
  editing,
  onDone,
  onClose,
}: {
  item: MenuItem;
  currency: string;
  initial: LineChoice;
  /** Changing a line already on the ticket (else adding a new one). */
  editing: boolean;
  onDone: (choice: LineChoice) => void;
  onClose: () => void;
}) {
  const [chosen, setChosen] = useState<string[]>(initial.modifierIds);
  const [noteText, setNoteText] = useState(initial.note);
  const [noteError, setNoteError] = useState<string | null>(null);
  const noteErrorId = useId();
  const blockingId = useId();
  const extras = extrasOf(item);
  const unsatisfied = unsatisfiedGroups(item, chosen);

  const submit = (event?: FormEvent) => {
    event?.preventDefault();
    if (unsatisfied.length > 0) return;
    const read = readNote(noteText);
    setNoteError(read.error);
    if (read.note === null) return;
    onDone({ modifierIds: inMenuOrder(item, chosen), note: read.note });
  };

  // Enter on a choice confirms, as it does in the note field: the whole chooser works from the keyboard.
  const onKeyDown = (event: KeyboardEvent<HTMLFormElement>) => {
    const target = event.target as HTMLInputElement;
    if (event.key === 'Enter' && target.tagName === 'INPUT' && (target.type === 'radio' || target.type === 'checkbox')) {
      event.preventDefault();
      submit();
    }
  };

  const action = editing ? 'Save' : 'Add';
  return (
    <Dialog title={editing ? `Change ${item.name}` : item.name} onClose={onClose} wide>
      <form onSubmit={submit} onKeyDown={onKeyDown} className="modifier-form">
        {item.modifierGroups.map((group, index) => (
          <GroupChoices key={group.id} group={group} item={item} chosen={chosen} currency={currency} onChange={setChosen} first={index === 0} />
        ))}
        {extras.length > 0 ? (
          <fieldset className="choice-group">
            <legend>
              Extras <span className="choice-rule">Optional</span>
            </legend>
            <div className="choices">
              {extras.map((modifier, index) => (
                <label key={modifier.id} className="choice">
                  <input
                    type="checkbox"
                    checked={chosen.includes(modifier.id)}
                    onChange={() => setChosen((current) => toggleExtra(current, modifier.id))}
                    {...(item.modifierGroups.length === 0 && index === 0 ? { 'data-autofocus': true } : {})}
                  />
                  {optionLabel(modifier, currency)}
                </label>
              ))}
            </div>
          </fieldset>
        ) : null}
        <label>
          Note for the kitchen ({noteText.trim().length}/{MAX_NOTE_LENGTH})
          <input
            value={noteText}
            placeholder="e.g. no onions"
            autoComplete="off"
            onChange={(event) => setNoteText(event.target.value)}
            {...(item.modifiers.length === 0 ? { 'data-autofocus': true } : {})}
            {...describedBy(noteErrorId, noteError)}
          />
        </label>
        <FieldError id={noteErrorId} message={noteError} />
        {unsatisfied.length > 0 ? (
          <p id={blockingId} className="muted choice-blocking" role="status">
            Choose {listOf(unsatisfied.map((group) => group.name))} to {action.toLowerCase()} it.
          </p>
        ) : null}
        <div className="dialog-actions">
          <button type="button" className="secondary big" onClick={onClose}>
            Cancel
          </button>
          <button type="submit" className="primary big" disabled={unsatisfied.length > 0} aria-describedby={unsatisfied.length > 0 ? blockingId : undefined} data-testid="modifier-done">
            {action} <kbd>Enter</kbd>
          </button>
        </div>
      </form>
    </Dialog>
  );
}
