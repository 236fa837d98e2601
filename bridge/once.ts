// Commands that create something (an order, a payment, a refund, a paid-out, a print): the page
// sends each with a request id, and the core answers a repeat of the same id with the first answer
// instead of doing it twice (store/request-ledger.ts). Commands missing here are safe to repeat:
// they read, or set a state that a second call leaves as it is.
import type { CommandName } from './contract';

export const ONCE_COMMANDS: ReadonlySet<CommandName> = new Set<CommandName>([
  'menu.createItem',
  'orders.place',
  // Its first additions open the linked check: a repeat after a lost answer must not refuse them.
  'orders.reopen',
  // A change sent to another till's order: a repeat after a lost answer must not send it twice.
  'storeMode.changeOrder',
  // Money into this drawer, or out of it: a repeat after a lost answer must not take or hand back twice.
  'storeMode.takePayment',
  'storeMode.giveBack',
  // A repeat after a lost answer is told what happened (joined, taken over), not refused ("already in the
  // store", "nothing to adopt"). Not storeMode.pairingCode: its answer is the code, which is kept on no disk.
  'storeMode.join',
  'storeMode.adoptTill',
  'payments.take',
  'payments.refund',
  'payments.refundItems',
  'printing.reprint',
  'printing.openDrawer',
  'printing.retryJob',
  'printing.redirectJob',
  'shift.open',
  'shift.moveCash',
  'shift.close',
  'staff.create',
  'reports.print',
]);
