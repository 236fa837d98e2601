// NOT YET CONFIRMED BY THE CLOUD is read when the receipt prints (issue 24, item 9): a receipt
// naming its cloud records asks the worker's `cloudState` then, not what was true when it was
// queued; one that may wait (a card taken online) waits for the confirmation, within its bound.
import { afterEach, describe, expect, it } from 'vitest';
import { receiptJob, UNCONFIRMED_TEXT, type CloudState } from '../../printing';
import { sampleReceipt } from './fixtures';
import { startRig, type Rig } from './rig';

let rig: Rig | undefined;
afterEach(async () => {
  await rig?.close();
  rig = undefined;
});

const records = [{ kind: 'order', id: 'ord_1' }, { kind: 'payment_intent', id: 'pi_1' }];

async function printOne(state: () => CloudState, waitMs: number, marker: string): Promise<{ text: string; asked: number }> {
  let asked = 0;
  rig = await startRig({
    worker: {
      cloudState: (given) => {
        expect(given).toEqual(records);
        asked += 1;
        return state();
      },
    },
  });
  const r = rig;
  // Queued while the payment was on its way: the document says so, as it did before.
  r.store.printQueue.enqueue([receiptJob({ orderId: 'ord_1', key: marker, doc: sampleReceipt(marker, { unconfirmed: true, cloud: { records, waitMs } }) })]);
  r.worker.notify();
  await r.receipt.waitFor(() => r.receipt.cuts() >= 1, 'the receipt');
  return { text: r.receipt.text(), asked };
}

describe('the cloud confirmation on a receipt', () => {
  it('is not printed when the cloud has confirmed the records by the time the receipt prints', async () => {
    const { text } = await printOne(() => 'confirmed', 0, 'E1');
    expect(text).toContain('E1');
    expect(text).not.toContain(UNCONFIRMED_TEXT);
  });

  it('is printed when a record is still on its way and the receipt may not wait (sold offline)', async () => {
    const { text } = await printOne(() => 'waiting', 0, 'E2');
    expect(text.split(UNCONFIRMED_TEXT)).toHaveLength(3);
  });

  it('is printed when the cloud refused a record', async () => {
    const { text } = await printOne(() => 'refused', 5_000, 'E3');
    expect(text).toContain(UNCONFIRMED_TEXT);
  });

  it('waits for a confirmation on its way, then prints without it', async () => {
    let answers = 0;
    // The cloud confirms on the third look.
    const { text, asked } = await printOne(() => (++answers >= 3 ? 'confirmed' : 'waiting'), 60_000, 'E4');
    expect(asked).toBeGreaterThanOrEqual(3);
    expect(text).not.toContain(UNCONFIRMED_TEXT);
  });

  it('prints NOT YET CONFIRMED once its wait is over without a confirmation', async () => {
    const { text, asked } = await printOne(() => 'waiting', 150, 'E5');
    expect(asked).toBeGreaterThanOrEqual(2);
    expect(text).toContain(UNCONFIRMED_TEXT);
  });
});
