// A refusal from the core split by where it goes: the issues naming a field of the form next to
// that field, everything else as one note under the form.
import { BridgeCallError } from './bridge-client';
import { describeError } from './hooks';

export interface SplitRefusal<F extends string> {
  fields: Partial<Record<F, string>>;
  /** What is about no field of the form (or the whole refusal when no issue names one). */
  note: string | null;
}

/**
 * `labels` name a field in the message under it ("customer.name" → "The name": "The name can be at
 * most 120 characters."); without one the core's words stand alone.
 */
/** How bridge/plain-issues.ts's fragments start: words about a value that has no subject yet. */
const FRAGMENT = /^(is|are|should|cannot|needs|can|must)\b/;

export function splitRefusal<F extends string>(caught: unknown, fields: readonly F[], labels: Partial<Record<F, string>> = {}): SplitRefusal<F> {
  const found: Partial<Record<F, string>> = {};
  const rest: string[] = [];
  if (caught instanceof BridgeCallError && caught.issues && caught.issues.length > 0) {
    for (const issue of caught.issues) {
      const field = fields.find((f) => issue.path === f || issue.path.endsWith(`.${f}`));
      // The plain fragments ("can be at most 120 characters") need the field's name; a schema's own words name it already.
      const label = field && FRAGMENT.test(issue.message) ? labels[field] : undefined;
      if (field && found[field] === undefined) found[field] = sentence(label ? `${label} ${issue.message}` : issue.message);
      else if (!field) rest.push(sentence(issue.message));
    }
    if (Object.keys(found).length === 0) return { fields: found, note: [describeError(caught), ...rest].join(' ') };
    return { fields: found, note: rest.length > 0 ? rest.join(' ') : null };
  }
  return { fields: found, note: describeError(caught) };
}

/** "a PIN is 4 to 8 digits" → "A PIN is 4 to 8 digits." (the core's schema words are lower-case fragments). */
export function sentence(message: string): string {
  const trimmed = message.trim();
  if (trimmed === '') return trimmed;
  const capital = trimmed[0]!.toUpperCase() + trimmed.slice(1);
  return /[.!?]$/.test(capital) ? capital : `${capital}.`;
}
