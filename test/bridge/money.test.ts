import { describe, expect, it } from 'vitest';
import { formatMoney, minorDigits, Money } from '../../bridge/money';

describe('Money schema', () => {
  it('accepts integer minor units with a lowercase 3-letter code', () => {
    expect(Money.parse({ amount: 1050, currency: 'usd' })).toEqual({ amount: 1050, currency: 'usd' });
    expect(Money.parse({ amount: -200, currency: 'eur' }).amount).toBe(-200);
  });

  it.each<[unknown, string]>([
    [{ amount: 10.5, currency: 'usd' }, 'fractional amount'],
    [{ amount: 1050, currency: 'USD' }, 'uppercase code'],
    [{ amount: 1050, currency: 'us' }, 'short code'],
    [{ amount: Number.MAX_SAFE_INTEGER + 2, currency: 'usd' }, 'unsafe integer'],
    [{ amount: 1050, currency: 'usd', extra: 1 }, 'unknown field'],
    [{ amount: '1050', currency: 'usd' }, 'amount as a string'],
  ])('rejects %o (%s)', (value, _why) => {
    expect(Money.safeParse(value).success).toBe(false);
  });
});

describe('formatMoney', () => {
  it('formats two-decimal currencies', () => {
    expect(formatMoney(1050, 'usd')).toBe('$10.50');
    expect(formatMoney(5, 'usd')).toBe('$0.05');
    expect(formatMoney(-1999, 'usd')).toBe('-$19.99');
  });

  it('formats zero-decimal currencies without inventing cents', () => {
    expect(minorDigits('jpy')).toBe(0);
    expect(formatMoney(1050, 'jpy')).toBe('¥1,050');
  });

  it('formats three-decimal currencies', () => {
    expect(minorDigits('bhd')).toBe(3);
    expect(formatMoney(1500, 'bhd', 'en-US')).toBe('BHD\u00a01.500');
  });

  it('follows the locale', () => {
    expect(formatMoney(123456, 'eur', 'de-DE')).toBe('1.234,56\u00a0€');
  });

  it('refuses a fractional amount or a malformed currency', () => {
    expect(() => formatMoney(10.5, 'usd')).toThrow();
    expect(() => formatMoney(100, 'dollars')).toThrow();
  });
});
