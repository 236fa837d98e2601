// Commit → bytes at the printer, measured end to end: a receipt job committed in a store
// transaction, `notify()`, the worker's status query, its 'sending' commit, the send, until the
// fake printer has received the whole job (the client's end). For test/bench (no vitest here).
import { performance } from 'node:perf_hooks';
import { receiptJob } from '../../printing';
import { decodeEscPos } from './escpos-decode';
import { sampleReceipt } from './fixtures';
import { startRig, until } from './rig';

export interface PrintLatency {
  samples: number[];
  p50: number;
  p95: number;
  max: number;
}

/** Prints `receipts` receipts one after another on a fresh rig; ms from each commit to its last byte received. */
export async function measureCommitToPrinted(options: { receipts?: number; file?: string } = {}): Promise<PrintLatency> {
  const rig = await startRig(options.file ? { file: options.file } : {});
  try {
    const samples: number[] = [];
    for (let i = 0; i < (options.receipts ?? 40); i++) {
      const marker = `LAT-${1000 + i}`;
      const before = rig.receipt.connections.length;
      const committedAt = performance.now();
      rig.store.transaction(() => rig.store.printQueue.enqueue([receiptJob({ orderId: marker, key: 'paid', doc: sampleReceipt(marker) })]));
      rig.worker.notify();
      const printed = () => rig.receipt.connections.slice(before).find((c) => c.endedAt !== null && decodeEscPos(c.jobBytes).text.includes(marker));
      await until(() => printed() !== undefined, marker);
      samples.push((printed()?.endedAt as number) - committedAt);
      await until(() => rig.view().state === 'ready', 'ready');
    }
    const sorted = [...samples].sort((a, b) => a - b);
    const at = (q: number) => sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * q))] as number;
    return { samples, p50: at(0.5), p95: at(0.95), max: sorted.at(-1) as number };
  } finally {
    await rig.close();
  }
}
