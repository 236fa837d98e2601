import { formatMoney } from '../../bridge/money';

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

export function formatTime(iso: string): string {
  return new Date(iso).toLocaleString(undefined, { month: 'short', day: 'numeric', hour: '2-digit', minute: '2-digit' });
}

/** Minor units typed as "12.50" (or "1250" with no separator meaning whole units). */
export function parseAmount(text: string, digits = 2): number | null {
  const cleaned = text.trim().replace(/[^0-9.,]/g, '').replace(',', '.');
  if (!/^\d+(\.\d*)?$/.test(cleaned)) return null;
  const [whole, fraction = ''] = cleaned.split('.') as [string, string?];
  if (fraction.length > digits) return null;
  return Number(whole) * 10 ** digits + Number(fraction.padEnd(digits, '0') || '0');
}

export function toAmountText(amount: number, digits = 2): string {
  return digits === 0 ? String(amount) : (amount / 10 ** digits).toFixed(digits);
}
