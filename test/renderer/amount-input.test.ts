// What a cashier types into a money or number field is read whole or refused with a reason:
// no character is dropped and no value is "fixed" on the way to the core.
import { describe, expect, it } from 'vitest';
import { parseAmount, readAmount, readWholeNumber } from '../../renderer/lib/format';

describe('reading a typed amount', () => {
  it('refuses "-5.00" with a message instead of reading it as 5.00', () => {
    expect(parseAmount('-5.00')).toBeNull();
    expect(readAmount('-5.00', 'usd')).toEqual({ amount: null, error: 'An amount cannot be negative.' });
    expect(readAmount('-20', 'usd').error).toBe('An amount cannot be negative.');
  });

  it('refuses any character it would otherwise have to drop', () => {
    for (const text of ['$4.50', '4.50 USD', '4,50.0', '1,000.00', '4 50', '+4', '4.5.0', '.', 'abc', '4e2']) {
      expect(parseAmount(text), text).toBeNull();
      expect(readAmount(text, 'usd').error, text).toBe('Type the amount with digits and one decimal point, e.g. 4.50.');
    }
  });

  it('reads digits with one decimal point or comma, within the currency digits', () => {
    expect(readAmount('12.5', 'usd')).toEqual({ amount: 1250, error: null });
    expect(readAmount(' 7 ', 'usd')).toEqual({ amount: 700, error: null });
    expect(readAmount('1,5', 'usd')).toEqual({ amount: 150, error: null });
    expect(readAmount('1000', 'jpy')).toEqual({ amount: 1000, error: null });
    expect(readAmount('1.234', 'usd').error).toBe('Use at most 2 digits after the decimal point.');
    expect(readAmount('10.5', 'jpy').error).toBe('Type a whole amount, e.g. 450.');
    expect(readAmount('', 'usd').error).toBe('Enter an amount, e.g. 4.50.');
  });

  it('says the range when the amount is outside it', () => {
    expect(readAmount('0', 'usd', { min: 1, max: 1200 }).error).toBe('Enter an amount from $0.01 to $12.00.');
    expect(readAmount('12.01', 'usd', { min: 1, max: 1200 }).error).toBe('Enter an amount from $0.01 to $12.00.');
    expect(readAmount('99999999999', 'usd').error).toBe('Enter an amount from $0.00 to $1,000,000.00.');
    expect(readAmount('12.00', 'usd', { min: 1, max: 1200 }).amount).toBe(1200);
  });

  it('reads a whole number in range, or says which range', () => {
    expect(readWholeNumber('8080', 0, 65535)).toEqual({ value: 8080, error: null });
    for (const text of ['-1', '65536', '80a', '80.5', '', ' ']) {
      expect(readWholeNumber(text, 0, 65535).error, text).toBe('Enter a whole number from 0 to 65535.');
    }
  });
});
