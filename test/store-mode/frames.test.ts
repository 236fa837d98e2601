// The feed's page format: decoded the same however the bytes are cut, and refused whole when it is
// short, long, out of order, or repeats what the puller already has.
import { describe, expect, it } from 'vitest';
import { encodePage, MAX_ENTRY_BYTES, PageDecoder, type FeedEntry } from '../../store-mode/frames';

const entries: FeedEntry[] = Array.from({ length: 5 }, (_, i) => ({ seq: 11 + i, opId: `op_${i}`, body: Buffer.from(`{"n":${i}}`.repeat(i + 1)) }));
const pageBytes = (list: readonly FeedEntry[] = entries) => Buffer.concat(encodePage(list).chunks);

function decode(bytes: Buffer, after = 10, limit = 100, cut = bytes.length): FeedEntry[] {
  const decoder = new PageDecoder(after, limit);
  for (let at = 0; at < bytes.length; at += cut) decoder.push(bytes.subarray(at, at + cut));
  return decoder.finish();
}

const plain = (list: readonly FeedEntry[]) => list.map((e) => ({ seq: e.seq, opId: e.opId, body: Buffer.from(e.body).toString() }));

describe('feed pages', () => {
  it('decode to the entries encoded, whatever the chunk boundaries', () => {
    const bytes = pageBytes();
    expect(encodePage(entries).bytes).toBe(bytes.length);
    for (const cut of [1, 2, 7, 13, 64, bytes.length]) expect(plain(decode(bytes, 10, 100, cut)), `cut ${cut}`).toEqual(plain(entries));
    expect(decode(pageBytes([]))).toEqual([]);
  });

  it.each([
    ['truncated mid-frame', () => pageBytes().subarray(0, pageBytes().length - 3), /truncated/],
    ['truncated at a frame boundary', () => Buffer.concat(encodePage(entries).chunks.slice(0, -2)), /truncated: 4 of 5/],
    ['with bytes after the last entry', () => Buffer.concat([pageBytes(), Buffer.from([0])]), /bytes after the last entry/],
    ['not a feed page', () => Buffer.from('HTTP/1.1 200 OK\r\n\r\n'), /not a feed page/],
    ['replaying entries at or below the cursor', () => pageBytes(entries.map((e) => ({ ...e, seq: e.seq - 1 }))), /seq 10 is not after 10/],
    ['going backwards', () => pageBytes([entries[1] as FeedEntry, entries[0] as FeedEntry]), /seq 11 is not after 12/],
  ])('are refused whole when %s', (_case, bytes, message) => {
    expect(() => decode(bytes())).toThrow(message);
  });

  it('refuse more entries than asked for, an op id that is not one, and an entry too big to buffer', () => {
    expect(() => decode(pageBytes(), 10, 4)).toThrow(/5 entries where at most 4/);
    const tampered = pageBytes();
    tampered[8 + 9] = 0x20; // a space inside the first op id
    expect(() => decode(tampered)).toThrow(/op id is not an op id/);
    const huge = pageBytes([entries[0] as FeedEntry]);
    huge.writeUInt32BE(MAX_ENTRY_BYTES + 1, 8 + 9 + 4);
    expect(() => decode(huge)).toThrow(/an entry of/);
    expect(() => encodePage([{ seq: 1, opId: 'has space', body: Buffer.alloc(1) }])).toThrow(/op id/);
  });
});
