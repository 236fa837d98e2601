// `npm run hash-pin -- 4821` prints a PIN as scrypt:<salt>:<hash>, the only form in which the
// configuration takes a PIN (docs/config.md, "Staff"; docs/it.md, "Provisioning staff"):
//   --staff "Name:role:<hash>"   (repeatable; POS_STAFF comma-separated; staff.members in a config file)
//   --manager-pin-hash <hash>    (deprecated: read as a provisioned manager named "Manager")
// An obvious PIN (one digit repeated, a run such as 1234 or 9876) is refused with exit code 2, as the
// till refuses it, unless --allow-weak is given. Each run gives a different hash (random salt).
import { STAFF_PIN, weakPinReason } from '../../bridge/staff/roles';
import { hashManagerPin } from './manager-pin';
import { runWhenInvoked, type CliResult } from './cli';

export const HASH_PIN_USAGE = [
  'usage: npm run hash-pin -- [--allow-weak] <4 to 8 digit PIN>',
  '',
  'Prints the PIN as scrypt:<salt>:<hash>. Give it to the terminal as',
  '  --staff "Name:role:<hash>"   (role: cashier, manager or owner; repeat --staff for each person)',
  '  POS_STAFF="Name:role:<hash>,Name:role:<hash>"',
  '  or { "staff": { "members": [{ "name": "…", "role": "…", "pinHash": "<hash>" }] } } in a config file.',
  'An obvious PIN (1111, 1234, 9876) is refused unless --allow-weak is given.',
  'npm run -s hash-pin -- <PIN> prints the hash alone (for scripts).',
].join('\n');

export type HashPinResult = CliResult;

/** The command without its process: `args` are what follows `npm run hash-pin --`. */
export function hashPinCommand(args: readonly string[], hash: (pin: string) => string = hashManagerPin): HashPinResult {
  const refuse = (message: string): HashPinResult => ({ code: 2, stdout: '', stderr: `${message}\n` });
  if (args.includes('--help') || args.includes('-h')) return { code: 0, stdout: `${HASH_PIN_USAGE}\n`, stderr: '' };
  const allowWeak = args.includes('--allow-weak');
  const unknown = args.find((a) => a.startsWith('-') && a !== '--allow-weak');
  if (unknown !== undefined) return refuse(`hash-pin: unknown option ${unknown}\n\n${HASH_PIN_USAGE}`);
  const pins = args.filter((a) => !a.startsWith('-'));
  if (pins.length !== 1) return refuse(HASH_PIN_USAGE);
  const pin = pins[0] as string;
  if (!STAFF_PIN.test(pin)) return refuse(`hash-pin: refused: a PIN is 4 to 8 digits.\n\n${HASH_PIN_USAGE}`);
  const weak = weakPinReason(pin);
  if (weak !== null && !allowWeak) {
    return refuse(
      `hash-pin: refused: ${weak}\n` +
        'The till refuses such a PIN when it is set there; to provision it anyway: npm run hash-pin -- --allow-weak <PIN>',
    );
  }
  return { code: 0, stdout: `${hash(pin)}\n`, stderr: '' };
}

runWhenInvoked(import.meta.url, hashPinCommand);
