import { createHmac } from 'node:crypto';
import Stripe from 'stripe';
import { describe, expect, it } from 'vitest';
import { signatureHeader, verifySignature } from '../../api/signature';

const secret = 'whsec_test_secret';
const body = Buffer.from('{"id":"evt_1","type":"order.created"}');
const now = 1_800_000_000;

describe('signatureHeader', () => {
  it('is t=…,v1=hex HMAC-SHA256 of "t.body", as stripe-node computes it', () => {
    const header = signatureHeader(secret, body, now);
    const expected = createHmac('sha256', secret).update(`${now}.${body.toString()}`).digest('hex');
    expect(header).toBe(`t=${now},v1=${expected}`);
    expect(Stripe.webhooks.generateTestHeaderString({ payload: body.toString(), secret, timestamp: now })).toBe(header);
    expect(() => signatureHeader(secret, body, -1)).toThrow(RangeError);
    expect(() => signatureHeader(secret, body, 1.5)).toThrow(RangeError);
  });
});

describe('verifySignature', () => {
  const valid = signatureHeader(secret, body, now);
  const verify = (header: string | string[] | undefined, overrides: Partial<Parameters<typeof verifySignature>[0]> = {}) =>
    verifySignature({ header, rawBody: body, secrets: [secret], nowSec: now, ...overrides });

  it('accepts the raw bytes as Buffer or string', () => {
    expect(verify(valid)).toEqual({ ok: true, timestamp: now });
    expect(verify(valid, { rawBody: body.toString() })).toEqual({ ok: true, timestamp: now });
  });

  it('accepts any of several v1 entries and any of several secrets (rotation)', () => {
    const v1Old = signatureHeader('whsec_old', body, now).split(',')[1];
    expect(verify(`t=${now},${v1Old},${valid.split(',')[1]}`).ok).toBe(true);
    expect(verify(valid, { secrets: ['whsec_new', secret] }).ok).toBe(true);
    expect(verify(`t=${now},v0=abc,v1=${'0'.repeat(64)},${valid.split(',')[1]}`).ok).toBe(true);
  });

  it('tolerates 300 s in both directions and no more', () => {
    expect(verify(valid, { nowSec: now + 300 }).ok).toBe(true);
    expect(verify(valid, { nowSec: now + 301 })).toEqual({ ok: false, reason: 'stale' });
    expect(verify(valid, { nowSec: now - 300 }).ok).toBe(true);
    expect(verify(valid, { nowSec: now - 301 })).toEqual({ ok: false, reason: 'future' });
    expect(verify(valid, { nowSec: now + 1000, toleranceSec: 1000 }).ok).toBe(true);
  });

  it.each([
    ['missing', undefined, 'missing'],
    ['empty', '', 'missing'],
    ['empty array', [], 'missing'],
    ['sent twice', [valid, valid], 'malformed'],
    ['no timestamp', `v1=${'a'.repeat(64)}`, 'malformed'],
    ['two timestamps', `t=${now},t=${now},${valid.split(',')[1]}`, 'malformed'],
    ['non-numeric timestamp', `t=abc,${valid.split(',')[1]}`, 'malformed'],
    ['a part without =', `t=${now},garbage`, 'malformed'],
    ['no v1', `t=${now},v0=${'a'.repeat(64)}`, 'no_v1'],
    ['v1 of the wrong length', `t=${now},v1=abc`, 'no_v1'],
    ['uppercase hex', `t=${now},v1=${valid.split('v1=')[1]?.toUpperCase()}`, 'no_v1'],
    ['a signature of another body', signatureHeader(secret, 'other', now), 'mismatch'],
    ['another secret', signatureHeader('whsec_other', body, now), 'mismatch'],
    ['a changed timestamp', valid.replace(`t=${now}`, `t=${now + 1}`), 'mismatch'],
  ])('refuses %s', (_name, header, reason) => {
    expect(verify(header as string | string[] | undefined)).toEqual({ ok: false, reason });
  });

  it('accepts a single-element header array and refuses an empty secret list', () => {
    expect(verify([valid]).ok).toBe(true);
    expect(verify(valid, { secrets: [] })).toEqual({ ok: false, reason: 'mismatch' });
  });

  it('agrees with stripe-node on signatures it makes and the bytes it checks', () => {
    const header = Stripe.webhooks.generateTestHeaderString({ payload: body.toString(), secret, timestamp: now });
    expect(verify(header).ok).toBe(true);
    const reserialised = JSON.stringify(JSON.parse(body.toString()), null, 1);
    expect(verify(valid, { rawBody: reserialised })).toEqual({ ok: false, reason: 'mismatch' });
    expect(() => Stripe.webhooks.constructEvent(reserialised, valid, secret, 300, undefined, now * 1000)).toThrow();
  });
});
