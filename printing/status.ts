// ESC/POS real-time status, DLE EOT n (0x10 0x04 n), as the Epson ESC/POS reference defines it.
// The printer answers each query with one byte at once, even while offline or busy printing (it
// is a real-time command). Every answer byte has bits 0 and 7 off and bits 1 and 4 on (0xx1xx10):
// that tells them apart from other bytes the printer may send (an ASB message, a GS r answer).
//
//   n = 1 printer status   bit 2: drawer kick connector pin 3 high; bit 3: offline;
//                          bit 5: waiting for online recovery; bit 6: paper feed button pressed
//   n = 2 offline cause    bit 2: cover open; bit 3: paper fed by the feed button;
//                          bit 5: printing stopped at paper end; bit 6: an error occurred
//   n = 3 error cause      bit 2: mechanical error; bit 3: autocutter error;
//                          bit 5: unrecoverable error; bit 6: automatically recoverable error (head hot)
//   n = 4 paper roll       bits 2-3: near-end sensor: paper near end; bits 5-6: end sensor: no paper

/** The four queries in one write: the printer answers four bytes, in order. */
export const STATUS_QUERY: Buffer = Buffer.from([0x10, 0x04, 1, 0x10, 0x04, 2, 0x10, 0x04, 3, 0x10, 0x04, 4]);

export interface PrinterStatus {
  online: boolean;
  coverOpen: boolean;
  /** The roll is out (end sensor), or printing stopped at paper end. */
  paperOut: boolean;
  /** The near-end sensor sees little paper left: still prints. */
  paperNearEnd: boolean;
  /** Mechanical, autocutter, unrecoverable or automatically recoverable error. */
  error: boolean;
  /** Which error (when `error`). */
  errors: { mechanical: boolean; autocutter: boolean; unrecoverable: boolean; autoRecoverable: boolean };
  /** Drawer kick connector pin 3 is high (a drawer's open/closed switch, where one is wired). */
  drawerSignal: boolean;
  /** The four bytes as answered (n = 1..4). */
  raw: [number, number, number, number];
}

/** A byte in the shape of a DLE EOT answer (0xx1xx10). */
export function isStatusByte(byte: number): boolean {
  return (byte & 0x93) === 0x12;
}

const bit = (byte: number, n: number) => (byte & (1 << n)) !== 0;

/** The answers to DLE EOT 1, 2, 3 and 4, in that order. */
export function parseStatus(bytes: readonly [number, number, number, number] | Uint8Array): PrinterStatus {
  if (bytes.length !== 4) throw new RangeError(`a printer status is 4 bytes (DLE EOT 1..4), got ${bytes.length}`);
  const [printer, offline, error, paper] = [bytes[0], bytes[1], bytes[2], bytes[3]] as [number, number, number, number];
  for (const byte of [printer, offline, error, paper]) {
    if (!isStatusByte(byte)) throw new RangeError(`0x${byte.toString(16).padStart(2, '0')} is not a DLE EOT status byte`);
  }
  const errors = { mechanical: bit(error, 2), autocutter: bit(error, 3), unrecoverable: bit(error, 5), autoRecoverable: bit(error, 6) };
  return {
    online: !bit(printer, 3),
    coverOpen: bit(offline, 2),
    paperOut: bit(offline, 5) || (paper & 0x60) !== 0,
    paperNearEnd: (paper & 0x0c) !== 0,
    error: bit(offline, 6) || Object.values(errors).some(Boolean),
    errors,
    drawerSignal: bit(printer, 2),
    raw: [printer, offline, error, paper],
  };
}

/**
 * The bytes a printer in this condition answers to DLE EOT 1..4 (an Epson TM's, e.g. a cover open
 * also makes it offline). For test printers and for documentation of the bits.
 */
export function encodeStatus(condition: { offline?: boolean; coverOpen?: boolean; paperOut?: boolean; paperNearEnd?: boolean; error?: 'mechanical' | 'autocutter' | 'unrecoverable' | 'auto_recoverable' | null; drawerSignal?: boolean } = {}): [number, number, number, number] {
  const fixed = 0x12;
  const errorBit = { mechanical: 0x04, autocutter: 0x08, unrecoverable: 0x20, auto_recoverable: 0x40 } as const;
  const offline = Boolean(condition.offline || condition.coverOpen || condition.paperOut || condition.error);
  return [
    fixed | (condition.drawerSignal ? 0x04 : 0) | (offline ? 0x08 : 0),
    fixed | (condition.coverOpen ? 0x04 : 0) | (condition.paperOut ? 0x20 : 0) | (condition.error ? 0x40 : 0),
    fixed | (condition.error ? errorBit[condition.error] : 0),
    fixed | (condition.paperNearEnd || condition.paperOut ? 0x0c : 0) | (condition.paperOut ? 0x60 : 0),
  ];
}

/** What keeps a printer from printing now, in the order a person should fix it; null when it can print. */
export function blockingCondition(status: PrinterStatus): { state: 'cover_open' | 'paper_out' | 'error' | 'offline'; reason: string } | null {
  if (status.coverOpen) return { state: 'cover_open', reason: 'the printer cover is open' };
  if (status.paperOut) return { state: 'paper_out', reason: 'the printer is out of paper' };
  if (status.error) {
    const which = Object.entries(status.errors).filter(([, on]) => on).map(([name]) => name.replace(/[A-Z]/g, (c) => ` ${c.toLowerCase()}`));
    return { state: 'error', reason: `the printer reports an error${which.length ? ` (${which.join(', ')})` : ''}` };
  }
  if (!status.online) return { state: 'offline', reason: 'the printer is offline' };
  return null;
}
