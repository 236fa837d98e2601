import { MAX_AMOUNT } from '../../bridge/contract';
import { formatMoney, minorDigits } from '../../bridge/money';

/**
 * formatMoney builds an Intl formatter per call; a grid re-rendering 96 tiles per keystroke cannot
 * afford that, and menu prices repeat, so each (amount, currency) is formatted once.
 */
const formatted = new Map<string, string>();
const FORMATTED_LIMIT = 10_000;

export function money(amount: number, currency: string): string {
  const key = `${currency}:${amount}`;
  let text = formatted.get(key);
  if (text === undefined) {
    if (formatted.size >= FORMATTED_LIMIT) formatted.clear();
    text = formatMoney(amount, currency);
    formatted.set(key, text);
  }
  return text;
}

/** "3 min", "2 h 5 min": how long changes have been waiting. */
export function formatAge(ms: number): string {
  const minutes = Math.floor(ms / 60_000);
  if (minutes < 1) return `${Math.max(0, Math.round(ms / 1000))} s`;
  if (minutes < 60) return `${minutes} min`;
  return `${Math.floor(minutes / 60)} h ${minutes % 60} min`;
}

/** Where the till tells time: the location's IANA zone ('' when it has none: this computer's) and its locale. */
export interface TimePlace {
  timezone: string;
  locale: string;
}

/** Until the location is known: this computer's zone, in the till's default locale. */
let shownPlace: TimePlace = { timezone: '', locale: 'en-US' };

/** Where times are told when a caller names no place: the location's, once location-time.ts has it. */
export function timePlace(): TimePlace {
  return shownPlace;
}

export function setTimePlace(place: TimePlace): void {
  shownPlace = place;
}

const formatters = new Map<string, Intl.DateTimeFormat>();

function formatter(place: TimePlace, options: Intl.DateTimeFormatOptions): Intl.DateTimeFormat {
  const key = `${place.locale} ${place.timezone} ${JSON.stringify(options)}`;
  let format = formatters.get(key);
  if (!format) {
    try {
      format = new Intl.DateTimeFormat(place.locale, { ...options, timeZone: place.timezone || undefined });
    } catch {
      // A zone or locale this browser does not know (the core checked both): its own, rather than no screen.
      format = new Intl.DateTimeFormat(undefined, options);
    }
    formatters.set(key, format);
  }
  return format;
}

/** The instant as `format` says it, the time of day on one line: a narrow column breaks after "Mar 14,", never before "PM". */
function unbroken(format: Intl.DateTimeFormat, iso: string): string {
  let time = false;
  return format
    .formatToParts(new Date(iso))
    .map((part) => {
      if (part.type === 'hour' || part.type === 'dayPeriod') time = true;
      // Whatever space the browser's ICU puts there (a space, or U+202F in some versions), one no-break space.
      return time && part.type === 'literal' ? part.value.replace(/\s/g, '\u00a0') : part.value;
    })
    .join('');
}

/** "Mar 14, 4:02 PM" in the location's zone and locale. */
export function formatTime(iso: string, place: TimePlace = shownPlace): string {
  return unbroken(formatter(place, { month: 'short', day: 'numeric', hour: 'numeric', minute: '2-digit' }), iso);
}

/** "4:02 PM": the time of day alone, for times of one shift or one day. */
export function formatClock(iso: string, place: TimePlace = shownPlace): string {
  return unbroken(formatter(place, { hour: 'numeric', minute: '2-digit' }), iso);
}

/** "Tue, May 14, 2024" for the business day "2024-05-14": a calendar date, so no zone moves it. */
export function formatBusinessDay(day: string, place: TimePlace = shownPlace): string {
  const [y, m, d] = day.split('-').map(Number);
  if (!y || !m || !d) return day;
  return formatter({ locale: place.locale, timezone: 'UTC' }, { weekday: 'short', year: 'numeric', month: 'short', day: 'numeric' }).format(Date.UTC(y, m - 1, d));
}

/**
 * The zone's short name at that instant ("PDT", "GMT+2"), or, where the location has none, that
 * the times are this computer's: said where a manager compares times with other records.
 */
export function zoneLabel(iso: string, place: TimePlace = shownPlace): string {
  if (place.timezone === '') return "this computer's zone: the location has none";
  return formatter(place, { timeZoneName: 'short' }).formatToParts(new Date(iso)).find((part) => part.type === 'timeZoneName')?.value ?? place.timezone;
}

const NOT_AN_AMOUNT = (digits: number) => `Type the amount with digits and one decimal point, e.g. ${example(digits)}.`;

function example(digits: number): string {
  return digits === 0 ? '450' : `4.${'5'.padEnd(digits, '0')}`;
}

/**
 * Minor units typed as "12.50" (or "12,50"), read whole: every character counts, so "-5.00" or
 * "$4.50" is not an amount rather than 5.00 or 4.50 with a character quietly dropped.
 */
function parse(text: string, digits: number): { amount: number } | { error: string } {
  const typed = text.trim();
  if (typed === '') return { error: `Enter an amount, e.g. ${example(digits)}.` };
  if (typed.startsWith('-')) return { error: 'An amount cannot be negative.' };
  const match = /^(\d+)(?:[.,](\d*))?$/.exec(typed);
  if (!match) return { error: NOT_AN_AMOUNT(digits) };
  const [, whole = '', fraction = ''] = match;
  if (fraction.length > digits) {
    return { error: digits === 0 ? `Type a whole amount, e.g. ${example(0)}.` : `Use at most ${digits} digits after the decimal point.` };
  }
  return { amount: Number(whole) * 10 ** digits + Number(fraction.padEnd(digits, '0') || '0') };
}

/** The amount typed, or null when the text is not exactly an amount. */
export function parseAmount(text: string, digits = 2): number | null {
  const read = parse(text, digits);
  return 'amount' in read ? read.amount : null;
}

export type AmountReading = { amount: number; error: null } | { amount: null; error: string };

/** The amount typed and within [min, max], or the sentence to show next to the field. */
export function readAmount(text: string, currency: string, { min = 0, max = MAX_AMOUNT }: { min?: number; max?: number } = {}): AmountReading {
  const read = parse(text, minorDigits(currency));
  if ('error' in read) return { amount: null, error: read.error };
  if (read.amount < min || read.amount > max) return { amount: null, error: `Enter an amount from ${money(min, currency)} to ${money(max, currency)}.` };
  return { amount: read.amount, error: null };
}

/** A whole number typed into a field (a port), within [min, max], or the sentence saying which. */
export function readWholeNumber(text: string, min: number, max: number): { value: number; error: null } | { value: null; error: string } {
  const typed = text.trim();
  const value = /^\d{1,15}$/.test(typed) ? Number(typed) : NaN;
  if (!(value >= min && value <= max)) return { value: null, error: `Enter a whole number from ${min} to ${max}.` };
  return { value, error: null };
}

export function toAmountText(amount: number, digits = 2): string {
  return digits === 0 ? String(amount) : (amount / 10 ** digits).toFixed(digits);
}

export type PercentReading = { value: number; error: null } | { value: null; error: string };

/** Basis points (1/100 of a percent) as a person types them: 1250 → "12.5", 1000 → "10". */
export function toPercentText(bps: number): string {
  return String(bps / 100);
}

/** Parts per million (1/10,000 of a percent), as tax rates are kept: 88750 → "8.875". */
export function toRateText(ppm: number): string {
  return String(ppm / 10_000);
}

/**
 * A percentage typed as "12.5" (a trailing "%" allowed), read whole into units of 10^-decimals
 * percent within [min, max]; anything else is refused with the sentence to show, never rounded
 * or clamped.
 */
function readScaledPercent(text: string, decimals: number, min: number, max: number, show: (units: number) => string): PercentReading {
  const typed = text.trim().replace(/\s*%$/, '');
  if (typed === '') return { value: null, error: 'Enter a percentage, e.g. 10 or 12.5.' };
  if (typed.startsWith('-')) return { value: null, error: 'A percentage cannot be negative.' };
  const match = /^(\d{1,7})(?:[.,](\d*))?$/.exec(typed);
  if (!match) return { value: null, error: 'Type the percentage with digits and one decimal point, e.g. 12.5.' };
  const [, whole = '', fraction = ''] = match;
  if (fraction.length > decimals) return { value: null, error: `Use at most ${decimals} digits after the decimal point.` };
  const value = Number(whole) * 10 ** decimals + Number(fraction.padEnd(decimals, '0') || '0');
  if (value < min || value > max) return { value: null, error: `Enter a percentage from ${show(min)}% to ${show(max)}%.` };
  return { value, error: null };
}

/** A percentage in basis points (discounts, tips, approval limits): two decimals at most. */
export function readPercent(text: string, { min = 0, max = 10_000 }: { min?: number; max?: number } = {}): PercentReading {
  return readScaledPercent(text, 2, min, max, toPercentText);
}

/** A tax rate in parts per million: "8.875" → 88750, four decimals at most. */
export function readTaxRate(text: string, { min = 0, max = 1_000_000 }: { min?: number; max?: number } = {}): PercentReading {
  return readScaledPercent(text, 4, min, max, toRateText);
}
