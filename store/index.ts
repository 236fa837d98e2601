// The store's public surface (see docs/store.md).
export { openStore, Store, type StoreOptions } from './store';
export { StoreError, type StoreErrorCode } from './errors';
export { STORE_MIGRATIONS, type Migration } from './migrations';
export * from './documents';
export type { OutboxOperation, DeadLetter, OutboxStats } from './outbox';
export { DeadLetterRefusal } from './outbox';
export type { LogBody, LogEntry, StoreLog } from './store-log';
export type { ReplicaCursor, ReplicaEntry, ReplicaOrder, ReplicaTill, StoreReplicas } from './store-replicas';
export type { ReplicaApplyThread } from './replica-apply-thread';
export type { ServerRecord, PullPage, CursorState, WebhookEventRecord } from './server-state';
export type { RepricedOrder } from './repriced-orders';
export { FloorPlan, nameKey, type CourseDoc, type SectionDoc, type TableDoc, type TableMarks } from './floor';
export { KitchenDisplayMemory, type BumpDelivery, type BumpRow } from './kitchen-display';
export { RequestLedger, type LedgerEntry } from './request-ledger';
export { StaffRoster, type StaffDoc, type StaffRole, type SignInGuardState } from './staff';
export { SharedPins, pinHashRef, type SharedPinHolder } from './shared-pins';
export { ShiftBook, type ShiftDoc, type CashCountDoc, type CashMovementDoc, type AttributionDoc, type AttributionKind } from './shifts';
export {
  PrintQueue,
  PRINT_JOB_KINDS,
  PRINT_JOB_STATES,
  type PrintJob,
  type PrintJobKind,
  type PrintJobState,
  type NewPrintJob,
  type EnqueueResult,
  type PrintJobFilter,
  type PrintJobCounts,
} from './print-queue';
export {
  NewOrderInput,
  OrderChangeInput,
  OrderListFilter,
  NewMenuItemInput,
  MenuItemChangeInput,
  LocationChangeInput,
  type Actor,
  type AuditEntry,
  type PaymentExtras,
} from './cashier';
