// Zod's refusals in words a cashier or a manager understands ("at most 500 characters", not
// "Too big: expected string to have <=500 characters"). Schemas with their own message keep it; the
// bridge (bridge/validate.ts) and the screens' forms use this for every other refusal.
import type { z } from 'zod';

const NOUNS: Record<string, string> = {
  number: 'a number',
  int: 'a whole number',
  string: 'text',
  array: 'a list',
  object: 'a set of details',
  boolean: 'yes or no',
};

function plural(n: number | bigint, one: string, many: string): string {
  return `${n} ${Number(n) === 1 ? one : many}`;
}

function tooSmall(issue: { origin: string; minimum: number | bigint; inclusive?: boolean }): string {
  const { origin, minimum } = issue;
  if (origin === 'string') return Number(minimum) <= 1 ? 'cannot be empty' : `needs at least ${plural(minimum, 'character', 'characters')}`;
  if (origin === 'array' || origin === 'set') return `needs at least ${plural(minimum, 'item', 'items')}`;
  return issue.inclusive === false ? `must be more than ${minimum}` : `must be at least ${minimum}`;
}

function tooBig(issue: { origin: string; maximum: number | bigint; inclusive?: boolean }): string {
  const { origin, maximum } = issue;
  if (origin === 'string') return `can be at most ${plural(maximum, 'character', 'characters')}`;
  if (origin === 'array' || origin === 'set') return `can have at most ${plural(maximum, 'item', 'items')}`;
  return issue.inclusive === false ? `must be less than ${maximum}` : `must be at most ${maximum}`;
}

/** The error map: what is wrong with one value, in words. */
export const plainError: z.core.$ZodErrorMap = (issue) => {
  switch (issue.code) {
    case 'invalid_type':
      return issue.input === undefined ? 'is missing' : `should be ${NOUNS[issue.expected] ?? issue.expected}`;
    case 'too_small':
      return tooSmall(issue);
    case 'too_big':
      return tooBig(issue);
    case 'unrecognized_keys':
      return `${issue.keys.map((k) => `"${k}"`).join(', ')} ${issue.keys.length === 1 ? 'is' : 'are'} not a detail this takes`;
    case 'invalid_value':
      return `should be one of: ${issue.values.map(String).join(', ')}`;
    case 'invalid_format':
      return issue.format === 'url' ? 'should be a web address (http or https)' : 'is not in the form asked for';
    case 'invalid_union':
      return 'is not one of the forms this takes';
    case 'not_multiple_of':
      return `should be a multiple of ${issue.divisor}`;
    default:
      return 'is not valid';
  }
};

/** Where an issue is, for a sentence: ["lines", 2, "quantity"] → "lines, #3, quantity". */
export function issuePlace(path: readonly PropertyKey[]): string {
  return path.map((p) => (typeof p === 'number' ? `#${p + 1}` : String(p))).join(', ');
}
