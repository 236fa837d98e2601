// Row types of every table, for kysely's type checking. The documents in documents.ts are what
// callers see; these are how they lie on disk (booleans as 0/1, JSON as text, one row per layer).
import type { Generated } from 'kysely';

/** 'base' = the confirmed truth (the server's, or the till's for cash); 'pending' = base + unconfirmed local changes. */
export type Layer = 'base' | 'pending';

interface LayerColumns {
  layer: Layer;
  /** Which pull last delivered this base row (e.g. "menu_item:loc_1"); null for rows not from a pull. */
  pull_scope: string | null;
  /** When a pull last saw this base row: rows of a scope not seen by a full pull are swept. */
  last_seen_at: number | null;
}

export interface LocationsTable extends LayerColumns {
  id: string;
  name: string;
  currency: string;
  address: string | null;
  timezone: string | null;
  /** Migration 12: JSON LocationTaxDoc or NULL. */
  tax: string | null;
  /** Migration 20: ISO 3166-1 alpha-2, or NULL. */
  country: string | null;
}
export interface CategoriesTable extends LayerColumns {
  id: string;
  name: string;
  position: number;
}
export interface ModifiersTable extends LayerColumns {
  id: string;
  name: string;
  price: number;
}
export interface MenuItemsTable extends LayerColumns {
  id: string;
  location_id: string | null;
  category_id: string | null;
  name: string;
  description: string;
  price: number;
  currency: string;
  available: number;
  low_stock: number;
  modifier_ids: string;
  deleted: number;
  /** Migration 10; the till's own (TILL_ONLY_DEFAULTS). */
  barcode: string | null;
  /** Migration 12. */
  tax_class: string | null;
  modifier_groups: string;
}
export interface OrdersTable extends LayerColumns {
  id: string;
  location_id: string;
  status: string;
  currency: string;
  customer_name: string | null;
  customer_phone: string | null;
  notes: string;
  total: number;
  created_at: number;
  updated_at: number;
  /** JSON array of the order's lines, each with its modifiers (OrderLineDoc). */
  lines: string;
  // Migration 12, the checkout (JSON where noted; see OrderDoc).
  number: string | null;
  business_day: string | null;
  service: string | null;
  channel: string | null;
  pricing: string | null;
  discount: string | null;
  check_total: number | null;
  cloud_check: string | null;
  split: string | null;
  /** Migration 21: the courses held or fired (JSON, CourseStateDoc[]). */
  courses: string | null;
  /** Migration 22: the gratuity rule it was placed under and its removal (JSON, GratuityDoc). */
  gratuity: string | null;
}
export interface PaymentIntentsTable extends LayerColumns {
  id: string;
  order_id: string;
  amount: number;
  currency: string;
  status: string;
  created_at: number;
  tip: number;
  split_part: string | null;
  /** Migration 32: the part of tip that was the automatic gratuity; null before it was recorded. */
  gratuity: number | null;
}
export interface PaymentsTable extends LayerColumns {
  id: string;
  order_id: string;
  payment_intent_id: string | null;
  method: string;
  amount: number;
  currency: string;
  status: string;
  created_at: number;
  tip: number;
  split_part: string | null;
  /** Migration 32: the part of tip that was the automatic gratuity; null before it was recorded. */
  gratuity: number | null;
}
export interface RefundsTable extends LayerColumns {
  id: string;
  payment_id: string;
  amount: number;
  currency: string;
  reason: string;
  status: string;
  created_at: number;
  /** JSON array of { line_index, quantity }. */
  items: string;
  /** Migration 19: the cashier's words, null when none. */
  note: string | null;
}
/** The last order number given per business day on this till (migration 12). */
export interface OrderNumbersTable {
  business_day: string;
  last: number;
}
export interface RepricedOrdersTable {
  order_id: string;
  till_total: number;
  server_total: number;
  currency: string;
  detected_at: number;
  settled_at: number | null;
  settled_by: string | null;
}
export interface OutboxTable {
  seq: Generated<number>;
  op_id: string;
  entity_kind: string;
  entity_id: string;
  kind: string;
  payload: string;
  /** The change this operation makes to the entity's document, replayed over base to form the pending layer. */
  patch: string;
  resource_key: string;
  state: string;
  attempts: number;
  next_attempt_at: number;
  last_error: string | null;
  created_at: number;
  updated_at: number;
  /**
   * JSON LineRef[] (store/order-lines.ts): for a change of an order's lines, the lines it was made
   * on, so the engine can tell whether another terminal changed them before it is sent. Null otherwise.
   */
  based_on: string | null;
}
export interface OutboxDependenciesTable {
  op_id: string;
  depends_on_op_id: string;
}
export interface DeadLettersTable {
  id: Generated<number>;
  op_id: string;
  reason: string;
  /** The operation whose failure sent this one here (itself, or a dependency). */
  caused_by_op_id: string;
  dead_at: number;
  /** JSON of DeadLetterRefusal (store/outbox.ts); null before migration 5 or when none was given. */
  refusal: string | null;
}
export interface WebhookInboxTable {
  event_id: string;
  type: string;
  payload: string;
  received_at: number;
  /** Why the event could not be applied; NULL once it is (or was at once). */
  apply_error: string | null;
}
export interface SyncCursorsTable {
  scope: string;
  cursor: string | null;
  high_water_mark: number | null;
  updated_at: number;
}
export interface IdMapTable {
  entity_kind: string;
  local_id: string;
  server_id: string;
}
export interface SettingsTable {
  key: string;
  value: string;
  updated_at: number;
}
export interface AuditLogTable {
  id: Generated<number>;
  at: number;
  actor: string;
  action: string;
  entity_kind: string | null;
  entity_id: string | null;
  detail: string;
}
/** Migration 13: the print queue (store/print-queue.ts, docs/printing.md). */
export interface PrintJobsTable {
  id: string;
  /** The configured printer's name: 'receipt' or a kitchen printer's name. */
  printer: string;
  kind: string;
  order_id: string | null;
  /** JSON of the document to print (rendered at print time), not bytes. */
  payload: string;
  /** Unique: the same ticket is never queued twice (`kitchen:<orderId>:<version>:<printer>`). */
  dedupe_key: string;
  state: string;
  attempts: number;
  next_attempt_at: number;
  last_error: string | null;
  created_at: number;
  updated_at: number;
  printed_at: number | null;
  /** 1 when a person sent an in-doubt job again: the copy says REPRINT. */
  reprint: number;
}

/** Migration 23, store mode (store/store-log.ts): this file's log id under key 'log_id'. */
export interface StoreMetaTable {
  key: string;
  value: string;
}
/** Migration 23: one entry per outbox operation (and per operation reaching the cloud) while store mode is on. */
export interface StoreLogTable {
  seq: Generated<number>;
  op_id: string;
  entity_kind: string;
  entity_id: string;
  /** JSON of LogBody (store/store-log.ts). */
  body: Uint8Array;
  created_at: number;
}
/** Migration 23 (store/store-replicas.ts): the entries pulled from another till's log. */
export interface StoreReplicaLogTable {
  origin: string;
  log_id: string;
  seq: number;
  op_id: string;
  body: Uint8Array;
}
/** Migration 23: how far each other till's log was applied here, and when it was last heard. */
export interface StoreCursorsTable {
  origin: string;
  till_name: string | null;
  /** Null until its first page. */
  log_id: string | null;
  seq: number;
  heard_at: number | null;
  /** How many times its log was found replaced. */
  replaced: number;
}
/** Migration 23: the latest document of each entity of each other till (the newest seq of the current log wins). */
export interface StoreReplicaDocsTable {
  origin: string;
  entity_kind: string;
  entity_id: string;
  order_id: string | null;
  log_id: string;
  seq: number;
  /** 1 when the origin had nothing of it left to send to the cloud. */
  synced: number;
  /** JSON of the entity's document; null when the origin dropped it. */
  doc: string | null;
}

export interface StoreTables {
  locations: LocationsTable;
  categories: CategoriesTable;
  modifiers: ModifiersTable;
  menu_items: MenuItemsTable;
  orders: OrdersTable;
  payment_intents: PaymentIntentsTable;
  payments: PaymentsTable;
  refunds: RefundsTable;
  /** Merged views: the pending row where one exists, else the base row. */
  orders_merged: OrdersTable;
  menu_items_merged: MenuItemsTable;
  outbox: OutboxTable;
  outbox_dependencies: OutboxDependenciesTable;
  dead_letters: DeadLettersTable;
  webhook_inbox: WebhookInboxTable;
  sync_cursors: SyncCursorsTable;
  id_map: IdMapTable;
  settings: SettingsTable;
  audit_log: AuditLogTable;
  repriced_orders: RepricedOrdersTable;
  order_numbers: OrderNumbersTable;
  print_jobs: PrintJobsTable;
  store_meta: StoreMetaTable;
  store_log: StoreLogTable;
  store_replica_log: StoreReplicaLogTable;
  store_cursors: StoreCursorsTable;
  store_replica_docs: StoreReplicaDocsTable;
}
