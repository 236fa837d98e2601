// Text the printer can print. receiptline turns a character its encoding (code page) lacks into
// "?", and an emoji (two UTF-16 units) into "??": "light ice 🧊" came out "light ice ??". Before
// the markup is made, each character the printer's encoding cannot print is written another way:
// an accent the code page lacks comes off its letter (ő → o on cp437), a typographic sign becomes
// its plain one (“ ” → ", – → -, € → EUR), an emoji or a pictograph is dropped (the words around
// it say what was meant), and anything else unprintable (a script the code page has no letters
// for) is one "*" per run, never "?". The preview gets the same text, so it shows what prints.
import { transform } from './receiptline';

/** receiptline's character sets ('multilingual' switches ESC/POS code pages as the text needs). */
export const PRINTER_ENCODINGS = ['multilingual', 'cp437', 'cp852', 'cp858', 'cp860', 'cp863', 'cp865', 'cp866', 'cp1252', 'cp932', 'cp936', 'cp949', 'cp950', 'shiftjis', 'gb18030', 'ksc5601', 'big5', 'tis620'] as const;
export type PrinterEncoding = (typeof PRINTER_ENCODINGS)[number];

/** Plain stand-ins, tried (after the character itself) in order. */
const STAND_INS: Record<string, string> = {
  '‘': "'", '’': "'", '‚': ',', '‛': "'", '′': "'", '“': '"', '”': '"', '„': '"', '″': '"', '«': '"', '»': '"',
  '–': '-', '—': '-', '‐': '-', '‑': '-', '−': '-', '…': '...', '•': '*', '·': '.', '×': 'x', '÷': '/',
  '€': 'EUR', '£': 'GBP', '¥': 'JPY', '₹': 'INR', '₩': 'KRW', '₽': 'RUB', '₺': 'TRY', '₪': 'ILS', '¢': 'c',
  '™': 'TM', '©': '(c)', '®': '(R)', '°': ' deg', '½': '1/2', '¼': '1/4', '¾': '3/4',
  ß: 'ss', ẞ: 'SS', æ: 'ae', Æ: 'AE', œ: 'oe', Œ: 'OE', ø: 'o', Ø: 'O', ł: 'l', Ł: 'L', đ: 'd', Đ: 'D', ð: 'd', Ð: 'D', þ: 'th', Þ: 'Th', ı: 'i', ĸ: 'k', ŋ: 'ng', Ŋ: 'NG',
};

/** Emoji and what builds them (joiners, variation selectors, skin tones, tags, keycaps, flags). */
const EMOJI = /\p{Extended_Pictographic}|\p{Emoji_Modifier}|\p{Regional_Indicator}|\u200d|\ufe0e|\ufe0f|\u20e3|[\u{e0020}-\u{e007f}]/u;

/** ESC $ and ESC \\ with their two bytes: where a column starts. */
// eslint-disable-next-line no-control-regex
const POSITIONING = /\x1b[\\$][\s\S]{2}/g;

const printableCache = new Map<string, Map<string, boolean>>();

/** The bytes receiptline prints for `text`, without the positioning (ESC $, ESC \\), which depends on its width. */
function render(text: string, encoding: PrinterEncoding): string {
  const bytes = transform(`${text.replace(/[\\|{}\-=~_"`^]/g, '\\$&')}\n`, { cpl: 48, encoding, command: 'escpos', cutting: false });
  return bytes.replace(POSITIONING, '');
}

/** Whether the printer prints this one character (a code point) as itself, not "?". Learned from receiptline once per character. */
function prints(ch: string, encoding: PrinterEncoding): boolean {
  const code = ch.codePointAt(0) ?? 0;
  if (code >= 0x20 && code < 0x7f) return true;
  if (code < 0x20 || code === 0x7f || (code >= 0x80 && code < 0xa0)) return false;
  let known = printableCache.get(encoding);
  if (!known) {
    known = new Map();
    printableCache.set(encoding, known);
  }
  let answer = known.get(ch);
  if (answer === undefined) {
    const out = render(ch, encoding);
    answer = out !== render('?', encoding) && out !== render('??', encoding);
    known.set(ch, answer);
  }
  return answer;
}

/** `ch` written with characters the printer has, or null when nothing sensible is left. */
function standIn(ch: string, encoding: PrinterEncoding): string | null {
  const candidates = [STAND_INS[ch], ch.normalize('NFKD').replace(/\p{M}/gu, '')];
  for (const candidate of candidates) {
    if (candidate === undefined || candidate === '' || candidate === ch) continue;
    if ([...candidate].every((c) => prints(c, encoding) || STAND_INS[c] !== undefined)) {
      return [...candidate].map((c) => (prints(c, encoding) ? c : (STAND_INS[c] ?? ''))).join('');
    }
  }
  return null;
}

/** `text` as the printer with this encoding can print it (see the top of this file). */
export function printableText(text: string, encoding: PrinterEncoding = 'multilingual'): string {
  let out = '';
  let dropped = false;
  let unprintableRun = false;
  for (const ch of text) {
    if (prints(ch, encoding) || ch === '\n' || ch === '\t') {
      out += ch;
      unprintableRun = false;
      continue;
    }
    if (EMOJI.test(ch) || /\p{M}/u.test(ch)) {
      dropped = true;
      continue;
    }
    const plain = standIn(ch, encoding);
    if (plain !== null) {
      out += plain;
      unprintableRun = false;
    } else if (!unprintableRun) {
      out += '*';
      unprintableRun = true;
    }
  }
  // A dropped emoji leaves its spaces behind: "light ice 🧊" is "light ice".
  return dropped ? out.replace(/[ \t]{2,}/g, ' ').replace(/[ \t]+$/gm, '').replace(/^[ \t]+/gm, '') : out;
}

/**
 * Every string of a document made printable (a deep copy); `keep` names object keys whose values
 * are not printed text and stay as they are.
 */
export function printableDocument<T>(doc: T, encoding: PrinterEncoding, keep: ReadonlySet<string> = new Set()): T {
  const walk = (value: unknown): unknown => {
    if (typeof value === 'string') return printableText(value, encoding);
    if (Array.isArray(value)) return value.map(walk);
    if (value !== null && typeof value === 'object') {
      return Object.fromEntries(Object.entries(value).map(([key, v]) => [key, keep.has(key) ? v : walk(v)]));
    }
    return value;
  };
  return walk(doc) as T;
}
