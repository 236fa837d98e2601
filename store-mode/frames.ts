// The feed's wire format: one page is a header and a run of frames, so the puller applies entries
// without parsing their bodies (the op id rides in the frame header) and streams pages instead of
// gathering them first.
//   page  = "PSF1" | u32 entry count | frame × count       (nothing after the last frame)
//   frame = u64 seq | u8 op id length | op id (ASCII) | u32 body length | body
// A page that ends early, runs long, goes backwards or repeats the puller's cursor is refused whole.

export interface FeedEntry {
  seq: number;
  opId: string;
  body: Uint8Array;
}

const MAGIC = Buffer.from('PSF1', 'latin1');
const PAGE_HEADER_BYTES = 8;
const FRAME_FIXED_BYTES = 8 + 1 + 4;
export const MAX_OP_ID_BYTES = 100;
/** One entry is an operation on one order: far below this. A peer announcing more is refused, not buffered. */
export const MAX_ENTRY_BYTES = 1024 * 1024;
const OP_ID = /^[A-Za-z0-9_.:-]+$/;

export class PageError extends Error {
  constructor(detail: string) {
    super(`feed page refused: ${detail}`);
    this.name = 'PageError';
  }
}

export function isOpId(text: string): boolean {
  return text.length > 0 && text.length <= MAX_OP_ID_BYTES && OP_ID.test(text);
}

/** The page as buffers to write in order (header, then each frame's header and body: bodies are not copied). */
export function encodePage(entries: readonly FeedEntry[]): { chunks: Uint8Array[]; bytes: number } {
  const header = Buffer.allocUnsafe(PAGE_HEADER_BYTES);
  MAGIC.copy(header, 0);
  header.writeUInt32BE(entries.length, 4);
  const chunks: Uint8Array[] = [header];
  let bytes = PAGE_HEADER_BYTES;
  for (const entry of entries) {
    if (!isOpId(entry.opId)) throw new Error(`entry ${entry.seq} has an op id the feed cannot carry`);
    const frameHeader = Buffer.allocUnsafe(FRAME_FIXED_BYTES + entry.opId.length);
    frameHeader.writeBigUInt64BE(BigInt(entry.seq), 0);
    frameHeader.writeUInt8(entry.opId.length, 8);
    frameHeader.write(entry.opId, 9, 'latin1');
    frameHeader.writeUInt32BE(entry.body.length, 9 + entry.opId.length);
    chunks.push(frameHeader, entry.body);
    bytes += frameHeader.length + entry.body.length;
  }
  return { chunks, bytes };
}

/**
 * Decodes a page as its chunks arrive. `after` is the cursor the page was asked for: every seq must be
 * above it and above the one before, so a replayed or reordered page cannot move the cursor back.
 */
export class PageDecoder {
  private pending: Buffer = Buffer.alloc(0);
  private expected: number | null = null;
  private lastSeq: number;
  readonly entries: FeedEntry[] = [];

  constructor(
    after: number,
    private readonly limit: number,
  ) {
    this.lastSeq = after;
  }

  push(chunk: Uint8Array): void {
    // Only a frame cut by a chunk boundary is copied; whole frames are views of the chunk.
    this.pending = this.pending.length === 0 ? Buffer.from(chunk.buffer, chunk.byteOffset, chunk.byteLength) : Buffer.concat([this.pending, chunk]);
    let offset = 0;
    if (this.expected === null) {
      if (this.pending.length < PAGE_HEADER_BYTES) return;
      if (!this.pending.subarray(0, 4).equals(MAGIC)) throw new PageError('not a feed page');
      this.expected = this.pending.readUInt32BE(4);
      if (this.expected > this.limit) throw new PageError(`${this.expected} entries where at most ${this.limit} were asked for`);
      offset = PAGE_HEADER_BYTES;
    }
    while (offset < this.pending.length) {
      if (this.entries.length === this.expected) throw new PageError('bytes after the last entry');
      const frame = this.readFrame(offset);
      if (frame === null) break;
      offset = frame;
    }
    this.pending = this.pending.subarray(offset);
  }

  /** The page's entries, once it is whole. */
  finish(): FeedEntry[] {
    if (this.expected === null || this.entries.length !== this.expected || this.pending.length !== 0) {
      throw new PageError(`truncated: ${this.entries.length} of ${this.expected ?? '?'} entries`);
    }
    return this.entries;
  }

  /** Reads the frame at `offset`; returns the offset after it, or null when it has not all arrived. */
  private readFrame(offset: number): number | null {
    const buffer = this.pending;
    if (buffer.length - offset < FRAME_FIXED_BYTES) return null;
    const seq = buffer.readBigUInt64BE(offset);
    if (seq > BigInt(Number.MAX_SAFE_INTEGER)) throw new PageError('seq out of range');
    const opIdLength = buffer.readUInt8(offset + 8);
    if (opIdLength === 0 || opIdLength > MAX_OP_ID_BYTES) throw new PageError('op id length out of range');
    if (buffer.length - offset < FRAME_FIXED_BYTES + opIdLength) return null;
    const opId = buffer.toString('latin1', offset + 9, offset + 9 + opIdLength);
    if (!OP_ID.test(opId)) throw new PageError('op id is not an op id');
    const bodyLength = buffer.readUInt32BE(offset + 9 + opIdLength);
    if (bodyLength > MAX_ENTRY_BYTES) throw new PageError(`an entry of ${bodyLength} bytes`);
    const bodyStart = offset + FRAME_FIXED_BYTES + opIdLength;
    if (buffer.length - bodyStart < bodyLength) return null;
    const seqNumber = Number(seq);
    if (seqNumber <= this.lastSeq) throw new PageError(`seq ${seqNumber} is not after ${this.lastSeq}`);
    this.lastSeq = seqNumber;
    this.entries.push({ seq: seqNumber, opId, body: buffer.subarray(bodyStart, bodyStart + bodyLength) });
    return bodyStart + bodyLength;
  }
}
