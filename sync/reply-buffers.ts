// Where a pull keeps the pages it has fetched ahead of writing them: as raw bytes in buffers it
// reuses, decoded only when the page's turn to be written comes. A page that waits as a string,
// parsed JSON or validated records outlives young-generation collections in V8, and so do the
// socket chunks it came in (their memory is freed only by a full collection): a first sync of
// 100,000 orders grew by tens of MB that way. docs/sync.md, "The pull's memory".

/** A reply's bytes, in a buffer that grows to the largest reply it has held and is then reused. */
export class ReplyBuffer {
  #bytes: Buffer;
  #length = 0;

  constructor(initialBytes = 64 * 1024) {
    this.#bytes = Buffer.allocUnsafeSlow(initialBytes);
  }

  append(chunk: Uint8Array): void {
    const needed = this.#length + chunk.byteLength;
    if (needed > this.#bytes.byteLength) {
      const grown = Buffer.allocUnsafeSlow(Math.max(needed, this.#bytes.byteLength * 2));
      this.#bytes.copy(grown, 0, 0, this.#length);
      this.#bytes = grown;
    }
    this.#bytes.set(chunk, this.#length);
    this.#length = needed;
  }

  /** The bytes as UTF-8 text (a leading byte order mark skipped, as undici's `text()` does); the buffer is empty after. */
  takeText(): string {
    const bom = this.#length >= 3 && this.#bytes[0] === 0xef && this.#bytes[1] === 0xbb && this.#bytes[2] === 0xbf;
    const text = this.#bytes.toString('utf8', bom ? 3 : 0, this.#length);
    this.#length = 0;
    return text;
  }

  clear(): void {
    this.#length = 0;
  }
}

/** Buffers lent to replies being read and given back once decoded: as many as were ever in use at once. */
export class ReplyBuffers {
  readonly #free: ReplyBuffer[] = [];

  lend(): ReplyBuffer {
    return this.#free.pop() ?? new ReplyBuffer();
  }

  giveBack(buffer: ReplyBuffer): void {
    buffer.clear();
    this.#free.push(buffer);
  }
}
