// Migrations live in code (a bundler keeps them; no folder scanning). The runner in database.ts
// applies each one in a transaction together with PRAGMA user_version.
import type { Database } from 'better-sqlite3';

export interface Migration {
  /** 1-based and contiguous: migration n brings the database to user_version n. */
  version: number;
  name: string;
  up(db: Database): void;
}

const LAYER_COLUMNS = `
  layer TEXT NOT NULL CHECK (layer IN ('base', 'pending')),
  pull_scope TEXT,
  last_seen_at INTEGER`;

/** A view that shows each entity once: its pending row when it has one, else its base row. */
function mergedView(table: string): string {
  return `CREATE VIEW ${table}_merged AS
    SELECT * FROM ${table} WHERE layer = 'pending'
    UNION ALL
    SELECT * FROM ${table} AS b WHERE b.layer = 'base'
      AND NOT EXISTS (SELECT 1 FROM ${table} AS p WHERE p.id = b.id AND p.layer = 'pending');`;
}

const domainAndOutbox: Migration = {
  version: 1,
  name: 'domain tables, outbox, inbox, cursors, id map, settings',
  up(db) {
    db.exec(`
      CREATE TABLE locations (
        id TEXT NOT NULL, name TEXT NOT NULL, currency TEXT NOT NULL, address TEXT, timezone TEXT, ${LAYER_COLUMNS},
        PRIMARY KEY (id, layer)) STRICT;
      CREATE TABLE categories (
        id TEXT NOT NULL, name TEXT NOT NULL, position INTEGER NOT NULL, ${LAYER_COLUMNS},
        PRIMARY KEY (id, layer)) STRICT;
      CREATE TABLE modifiers (
        id TEXT NOT NULL, name TEXT NOT NULL, price INTEGER NOT NULL, ${LAYER_COLUMNS},
        PRIMARY KEY (id, layer)) STRICT;
      CREATE TABLE menu_items (
        id TEXT NOT NULL, location_id TEXT, category_id TEXT, name TEXT NOT NULL, description TEXT NOT NULL,
        price INTEGER NOT NULL, currency TEXT NOT NULL, available INTEGER NOT NULL, low_stock INTEGER NOT NULL,
        modifier_ids TEXT NOT NULL, deleted INTEGER NOT NULL, ${LAYER_COLUMNS},
        PRIMARY KEY (id, layer)) STRICT;
      CREATE INDEX menu_items_by_location ON menu_items (location_id);
      CREATE TABLE orders (
        id TEXT NOT NULL, location_id TEXT NOT NULL,
        status TEXT NOT NULL CHECK (status IN ('open', 'fulfilled', 'cancelled')),
        currency TEXT NOT NULL, customer_name TEXT, customer_phone TEXT, notes TEXT NOT NULL,
        total INTEGER NOT NULL, created_at INTEGER NOT NULL, updated_at INTEGER NOT NULL, ${LAYER_COLUMNS},
        PRIMARY KEY (id, layer)) STRICT;
      CREATE INDEX orders_by_created ON orders (created_at);
      CREATE TABLE order_lines (
        order_id TEXT NOT NULL, layer TEXT NOT NULL, line_no INTEGER NOT NULL, menu_item_id TEXT NOT NULL,
        name TEXT NOT NULL, quantity INTEGER NOT NULL CHECK (quantity > 0), unit_price INTEGER NOT NULL,
        PRIMARY KEY (order_id, layer, line_no),
        FOREIGN KEY (order_id, layer) REFERENCES orders (id, layer) ON DELETE CASCADE) STRICT;
      CREATE TABLE order_line_modifiers (
        order_id TEXT NOT NULL, layer TEXT NOT NULL, line_no INTEGER NOT NULL, position INTEGER NOT NULL,
        modifier_id TEXT NOT NULL, name TEXT NOT NULL, price INTEGER NOT NULL,
        PRIMARY KEY (order_id, layer, line_no, position),
        FOREIGN KEY (order_id, layer, line_no) REFERENCES order_lines (order_id, layer, line_no) ON DELETE CASCADE) STRICT;
      CREATE TABLE payment_intents (
        id TEXT NOT NULL, order_id TEXT NOT NULL, amount INTEGER NOT NULL, currency TEXT NOT NULL,
        status TEXT NOT NULL, created_at INTEGER NOT NULL, ${LAYER_COLUMNS},
        PRIMARY KEY (id, layer)) STRICT;
      CREATE TABLE payments (
        id TEXT NOT NULL, order_id TEXT NOT NULL, payment_intent_id TEXT,
        method TEXT NOT NULL CHECK (method IN ('card', 'cash')), amount INTEGER NOT NULL, currency TEXT NOT NULL,
        status TEXT NOT NULL, created_at INTEGER NOT NULL, ${LAYER_COLUMNS},
        PRIMARY KEY (id, layer)) STRICT;
      CREATE TABLE refunds (
        id TEXT NOT NULL, payment_id TEXT NOT NULL, amount INTEGER NOT NULL CHECK (amount > 0), currency TEXT NOT NULL,
        reason TEXT NOT NULL, status TEXT NOT NULL, created_at INTEGER NOT NULL, ${LAYER_COLUMNS},
        PRIMARY KEY (id, layer)) STRICT;
      ${mergedView('orders')}
      ${mergedView('menu_items')}

      CREATE TABLE outbox (
        seq INTEGER PRIMARY KEY AUTOINCREMENT,
        op_id TEXT NOT NULL UNIQUE,
        entity_kind TEXT NOT NULL, entity_id TEXT NOT NULL, kind TEXT NOT NULL,
        payload TEXT NOT NULL, patch TEXT NOT NULL, resource_key TEXT NOT NULL,
        state TEXT NOT NULL CHECK (state IN ('pending', 'in_flight', 'done', 'dead')),
        attempts INTEGER NOT NULL DEFAULT 0, next_attempt_at INTEGER NOT NULL, last_error TEXT,
        created_at INTEGER NOT NULL, updated_at INTEGER NOT NULL) STRICT;
      CREATE INDEX outbox_by_state ON outbox (state, next_attempt_at);
      CREATE INDEX outbox_by_entity ON outbox (entity_kind, entity_id, state);
      CREATE INDEX outbox_by_resource ON outbox (resource_key, seq);
      CREATE TABLE outbox_dependencies (
        op_id TEXT NOT NULL REFERENCES outbox (op_id) ON DELETE CASCADE,
        depends_on_op_id TEXT NOT NULL REFERENCES outbox (op_id),
        PRIMARY KEY (op_id, depends_on_op_id)) STRICT;
      CREATE INDEX outbox_dependents ON outbox_dependencies (depends_on_op_id);
      CREATE TABLE dead_letters (
        id INTEGER PRIMARY KEY AUTOINCREMENT,
        op_id TEXT NOT NULL UNIQUE REFERENCES outbox (op_id) ON DELETE CASCADE,
        reason TEXT NOT NULL, caused_by_op_id TEXT NOT NULL, dead_at INTEGER NOT NULL) STRICT;
      CREATE TABLE webhook_inbox (
        event_id TEXT PRIMARY KEY, type TEXT NOT NULL, payload TEXT NOT NULL, received_at INTEGER NOT NULL) STRICT;
      CREATE TABLE sync_cursors (
        scope TEXT PRIMARY KEY, cursor TEXT, high_water_mark INTEGER, updated_at INTEGER NOT NULL) STRICT;
      CREATE TABLE id_map (
        entity_kind TEXT NOT NULL, local_id TEXT NOT NULL, server_id TEXT NOT NULL,
        PRIMARY KEY (entity_kind, local_id), UNIQUE (entity_kind, server_id)) STRICT;
      CREATE TABLE settings (key TEXT PRIMARY KEY, value TEXT NOT NULL, updated_at INTEGER NOT NULL) STRICT;
    `);
  },
};

const auditLog: Migration = {
  version: 2,
  name: 'audit log of cashier actions',
  up(db) {
    db.exec(`
      CREATE TABLE audit_log (
        id INTEGER PRIMARY KEY AUTOINCREMENT, at INTEGER NOT NULL, actor TEXT NOT NULL, action TEXT NOT NULL,
        entity_kind TEXT, entity_id TEXT, detail TEXT NOT NULL) STRICT;
      CREATE INDEX audit_log_by_entity ON audit_log (entity_kind, entity_id);
    `);
  },
};

const paymentLookups: Migration = {
  version: 3,
  name: 'indexes for payments by order and refunds by payment',
  up(db) {
    db.exec(`
      CREATE INDEX payment_intents_by_order ON payment_intents (order_id);
      CREATE INDEX payments_by_order ON payments (order_id);
      CREATE INDEX payments_by_intent ON payments (payment_intent_id);
      CREATE INDEX refunds_by_payment ON refunds (payment_id);
    `);
  },
};

const outboxDrainOrder: Migration = {
  version: 4,
  name: 'index for the sync engine to walk pending operations in outbox order',
  up(db) {
    // readyOperations asks for pending operations by seq with a small LIMIT; without this index
    // SQLite sorted every pending row on each call (4.6 ms with 10,000 queued, called per claim).
    db.exec(`CREATE INDEX outbox_by_state_seq ON outbox (state, seq);`);
  },
};

const deadLetterRefusal: Migration = {
  version: 5,
  name: 'why the server refused a dead-lettered operation, as data',
  up(db) {
    // JSON of DeadLetterRefusal; NULL for letters written before it existed.
    db.exec(`ALTER TABLE dead_letters ADD COLUMN refusal TEXT;`);
  },
};

const orderLinesInline: Migration = {
  version: 6,
  name: 'order lines as one JSON column of the order row',
  up(db) {
    // Lines are only ever read and written with their order, never queried on their own: one row
    // per order (instead of one per line and per modifier) made a pulled order a third as costly.
    db.exec(`
      ALTER TABLE orders ADD COLUMN lines TEXT NOT NULL DEFAULT '[]' CHECK (json_valid(lines));
      UPDATE orders SET lines = (
        SELECT json_group_array(json_object(
          'menu_item_id', l.menu_item_id, 'name', l.name, 'quantity', l.quantity, 'unit_price', l.unit_price,
          'modifiers', json((
            SELECT json_group_array(json_object('modifier_id', m.modifier_id, 'name', m.name, 'price', m.price) ORDER BY m.position)
            FROM order_line_modifiers AS m
            WHERE m.order_id = l.order_id AND m.layer = l.layer AND m.line_no = l.line_no))
          ) ORDER BY l.line_no)
        FROM order_lines AS l WHERE l.order_id = orders.id AND l.layer = orders.layer);
      DROP TABLE order_line_modifiers;
      DROP TABLE order_lines;
    `);
  },
};

const repricedOrders: Migration = {
  version: 7,
  name: 'orders the server priced differently from the till',
  up(db) {
    db.exec(`
      CREATE TABLE repriced_orders (
        order_id TEXT PRIMARY KEY, till_total INTEGER NOT NULL, server_total INTEGER NOT NULL, currency TEXT NOT NULL,
        detected_at INTEGER NOT NULL, settled_at INTEGER, settled_by TEXT) STRICT;
    `);
  },
};

const lineChangeBase: Migration = {
  version: 8,
  name: 'the lines a change of an order\'s lines was made on',
  up(db) {
    // Operations queued before this have none: they are sent as they are, as before.
    db.exec(`ALTER TABLE outbox ADD COLUMN based_on TEXT CHECK (based_on IS NULL OR json_valid(based_on));`);
  },
};

const unappliedWebhookEvents: Migration = {
  version: 9,
  name: 'webhook events kept when they could not be applied',
  up(db) {
    // A validly signed event is recorded even when it cannot be applied (the sender retries only
    // three times): it waits here, with why, until a fetch of its resource settles it.
    db.exec(`
      ALTER TABLE webhook_inbox ADD COLUMN apply_error TEXT;
      CREATE INDEX webhook_inbox_unapplied ON webhook_inbox (received_at) WHERE apply_error IS NOT NULL;
    `);
  },
};

const menuItemBarcode: Migration = {
  version: 10,
  name: 'a barcode or PLU per menu item, kept by the till only',
  up(db) {
    // NULL: no code yet. A queued create carries the whole item as its patch: without the field a
    // replay would no longer make a whole item, and the item would vanish from the till.
    db.exec(`
      ALTER TABLE menu_items ADD COLUMN barcode TEXT;
      UPDATE outbox SET patch = json_set(patch, '$.barcode', NULL) WHERE kind = 'menu_item.create' AND json_type(patch, '$.barcode') IS NULL;
    `);
  },
};

const yearOfOrders: Migration = {
  version: 11,
  name: 'indexes for the register\'s queries on a year of orders',
  up(db) {
    // Measured on 1,000,000 orders (docs/store.md): each list/search below was a scan of the
    // orders (0.2-0.7 s) and is now an index search. Layer first: the merged view asks for each
    // layer apart, and the pending one is tiny. The customer indexes skip orders without one.
    // orders_by_created is superseded by orders_by_layer_created: one index less per pulled order.
    db.exec(`
      DROP INDEX orders_by_created;
      CREATE INDEX orders_by_layer_created ON orders (layer, created_at, id);
      CREATE INDEX orders_by_layer_status_created ON orders (layer, status, created_at, id);
      CREATE INDEX orders_by_customer_name ON orders (customer_name COLLATE NOCASE, created_at) WHERE customer_name IS NOT NULL;
      CREATE INDEX orders_by_customer_phone ON orders (customer_phone, created_at) WHERE customer_phone IS NOT NULL;
    `);
  },
};

const checkout: Migration = {
  version: 12,
  name: 'the checkout: order numbers, service, pricing, discounts, tips, splits, refunds by item, tax rules',
  up(db) {
    // Every new field has a default a document reads as "not known" (documents.ts), so rows and
    // queued patches from before read whole. Order numbers are searched by the start of the number.
    db.exec(`
      ALTER TABLE locations ADD COLUMN tax TEXT;
      ALTER TABLE menu_items ADD COLUMN tax_class TEXT;
      ALTER TABLE menu_items ADD COLUMN modifier_groups TEXT NOT NULL DEFAULT '[]';
      ALTER TABLE orders ADD COLUMN number TEXT;
      ALTER TABLE orders ADD COLUMN business_day TEXT;
      ALTER TABLE orders ADD COLUMN service TEXT;
      ALTER TABLE orders ADD COLUMN channel TEXT;
      ALTER TABLE orders ADD COLUMN pricing TEXT;
      ALTER TABLE orders ADD COLUMN discount TEXT;
      ALTER TABLE orders ADD COLUMN check_total INTEGER;
      ALTER TABLE orders ADD COLUMN cloud_check TEXT;
      ALTER TABLE orders ADD COLUMN split TEXT;
      ALTER TABLE payment_intents ADD COLUMN tip INTEGER NOT NULL DEFAULT 0;
      ALTER TABLE payment_intents ADD COLUMN split_part TEXT;
      ALTER TABLE payments ADD COLUMN tip INTEGER NOT NULL DEFAULT 0;
      ALTER TABLE payments ADD COLUMN split_part TEXT;
      ALTER TABLE refunds ADD COLUMN items TEXT NOT NULL DEFAULT '[]';
      CREATE INDEX orders_by_number ON orders (number COLLATE NOCASE, created_at) WHERE number IS NOT NULL;
      CREATE TABLE order_numbers (business_day TEXT PRIMARY KEY, last INTEGER NOT NULL) STRICT;
    `);
  },
};

const printJobs: Migration = {
  version: 13,
  name: 'the print queue: receipts, kitchen tickets, drawer kicks and reports, durable until printed',
  up(db) {
    // A job is written in the same transaction as the order or payment it prints, and rendered at
    // print time from its payload (the document as JSON, not bytes). dedupe_key makes a retried
    // write or a restart enqueue the same ticket once. 'sending' is committed before the bytes go
    // out: after a crash such a job is in doubt and waits for a person (docs/printing.md).
    // reprint: set when a person sends an in-doubt job again, so the copy says REPRINT.
    db.exec(`
      CREATE TABLE print_jobs (
        id TEXT PRIMARY KEY,
        printer TEXT NOT NULL,
        kind TEXT NOT NULL CHECK (kind IN ('receipt', 'refund_receipt', 'kitchen', 'kitchen_add', 'kitchen_void', 'drawer', 'report')),
        order_id TEXT,
        payload TEXT NOT NULL CHECK (json_valid(payload)),
        dedupe_key TEXT NOT NULL UNIQUE,
        state TEXT NOT NULL CHECK (state IN ('pending', 'sending', 'done', 'failed', 'discarded')),
        attempts INTEGER NOT NULL DEFAULT 0,
        next_attempt_at INTEGER NOT NULL,
        last_error TEXT,
        created_at INTEGER NOT NULL,
        updated_at INTEGER NOT NULL,
        printed_at INTEGER,
        reprint INTEGER NOT NULL DEFAULT 0 CHECK (reprint IN (0, 1))) STRICT;
      CREATE INDEX print_jobs_queue ON print_jobs (printer, state, created_at);
      CREATE INDEX print_jobs_by_state ON print_jobs (state, printer);
      CREATE INDEX print_jobs_by_order ON print_jobs (order_id) WHERE order_id IS NOT NULL;
    `);
  },
};

const staffAndShifts: Migration = {
  version: 14,
  name: 'staff, sign-in lockout, shifts and cash movements, who did what on which business day',
  up(db) {
    // Local to this terminal: /v1 has no staff, shifts or drawers, so none of this is ever sent.
    // pin_hash is scrypt (never the PIN). provisioned: the configuration owns the row.
    // sign_in_guard has one row: wrong PINs in a row and until when PIN entry is refused; it
    // survives a restart, so restarting does not reset the count.
    // attributions: who placed (or took over) an order, took a payment, gave a refund or voided
    // an order, in which shift and on which business day; the Z report reads the day from it.
    db.exec(`
      CREATE TABLE staff (
        id TEXT PRIMARY KEY,
        name TEXT NOT NULL,
        role TEXT NOT NULL CHECK (role IN ('cashier', 'manager', 'owner')),
        pin_hash TEXT NOT NULL,
        active INTEGER NOT NULL DEFAULT 1 CHECK (active IN (0, 1)),
        provisioned INTEGER NOT NULL DEFAULT 0 CHECK (provisioned IN (0, 1)),
        created_at INTEGER NOT NULL,
        updated_at INTEGER NOT NULL) STRICT;
      CREATE TABLE sign_in_guard (
        id INTEGER PRIMARY KEY CHECK (id = 1),
        failures INTEGER NOT NULL,
        locked_until INTEGER NOT NULL) STRICT;
      CREATE TABLE shifts (
        id TEXT PRIMARY KEY,
        drawer TEXT NOT NULL,
        business_day TEXT NOT NULL,
        opened_at INTEGER NOT NULL,
        opened_by TEXT NOT NULL,
        currency TEXT NOT NULL,
        float_count TEXT NOT NULL CHECK (json_valid(float_count)),
        float_total INTEGER NOT NULL,
        closed_at INTEGER,
        closed_by TEXT,
        count TEXT CHECK (count IS NULL OR json_valid(count)),
        counted_total INTEGER,
        expected INTEGER,
        note TEXT NOT NULL DEFAULT '') STRICT;
      CREATE UNIQUE INDEX shifts_one_open_per_drawer ON shifts (drawer) WHERE closed_at IS NULL;
      CREATE INDEX shifts_by_day ON shifts (business_day);
      CREATE TABLE cash_movements (
        id TEXT PRIMARY KEY,
        shift_id TEXT NOT NULL REFERENCES shifts (id),
        kind TEXT NOT NULL CHECK (kind IN ('paid_out', 'drop')),
        amount INTEGER NOT NULL CHECK (amount > 0),
        reason TEXT NOT NULL,
        staff_id TEXT NOT NULL,
        at INTEGER NOT NULL) STRICT;
      CREATE INDEX cash_movements_by_shift ON cash_movements (shift_id);
      CREATE TABLE attributions (
        entity_kind TEXT NOT NULL CHECK (entity_kind IN ('order', 'payment', 'refund', 'void')),
        entity_id TEXT NOT NULL,
        staff_id TEXT NOT NULL,
        shift_id TEXT,
        business_day TEXT NOT NULL,
        at INTEGER NOT NULL,
        PRIMARY KEY (entity_kind, entity_id)) STRICT, WITHOUT ROWID;
      CREATE INDEX attributions_by_day ON attributions (business_day, entity_kind);
      CREATE INDEX attributions_by_shift ON attributions (shift_id) WHERE shift_id IS NOT NULL;
    `);
  },
};

const pinAttempts: Migration = {
  version: 15,
  name: 'PIN attempts reserved before hashing, the till-wide budgets of PIN checks, what a right sign-in cleared',
  up(db) {
    // Each PIN check is a row, reserved before its hash (pending until settled); kept 24 h. A right
    // sign-in clears only the rows before it (cleared_through). pin_budgets: token buckets refilled
    // by time only (store/staff.ts). The wrong PINs in a row counted before carry over as rows.
    db.exec(`
      ALTER TABLE sign_in_guard ADD COLUMN cleared_through INTEGER NOT NULL DEFAULT 0;
      CREATE TABLE pin_attempts (
        seq INTEGER PRIMARY KEY AUTOINCREMENT,
        kind TEXT NOT NULL CHECK (kind IN ('sign_in', 'approval', 'override', 'pin_set')),
        at INTEGER NOT NULL,
        outcome TEXT NOT NULL CHECK (outcome IN ('pending', 'wrong', 'right', 'neutral'))) STRICT;
      CREATE INDEX pin_attempts_by_time ON pin_attempts (at);
      CREATE TABLE pin_budgets (
        name TEXT PRIMARY KEY,
        tokens REAL NOT NULL,
        at INTEGER NOT NULL) STRICT;
    `);
    const guard = db.prepare('SELECT failures, locked_until AS lockedUntil FROM sign_in_guard WHERE id = 1').get() as { failures: number; lockedUntil: number } | undefined;
    if (!guard || guard.failures <= 0) return;
    // Rows that give the same wait: the last one at the lock's start (30 s doubling, 15 min from the 10th).
    const rows = Math.min(guard.failures, 10);
    const wait = rows >= 5 ? Math.min(30_000 * 2 ** (rows - 5), 15 * 60_000) : 0;
    const at = guard.lockedUntil > 0 ? guard.lockedUntil - wait : Date.now();
    const insert = db.prepare("INSERT INTO pin_attempts (kind, at, outcome) VALUES ('sign_in', ?, 'wrong')");
    for (let i = 0; i < rows; i++) insert.run(at);
  },
};

const bridgeRequests: Migration = {
  version: 16,
  name: 'answers of bridge commands that create something, by the request id of the page (store/request-ledger.ts)',
  up(db) {
    db.exec(`
      CREATE TABLE bridge_requests (
        request_id TEXT PRIMARY KEY,
        command TEXT NOT NULL,
        digest TEXT NOT NULL,
        run_id TEXT NOT NULL,
        result TEXT CHECK (result IS NULL OR json_valid(result)),
        at INTEGER NOT NULL) STRICT;
      CREATE INDEX bridge_requests_by_time ON bridge_requests (at);
    `);
  },
};

const walkouts: Migration = {
  version: 17,
  name: 'walkouts: an order closed unpaid, by whom, approved by whom and why (the Z report lists them apart from sales)',
  up(db) {
    db.exec(`
      CREATE TABLE walkouts (
        order_id TEXT PRIMARY KEY,
        staff_id TEXT NOT NULL,
        approved_by TEXT,
        reason TEXT NOT NULL,
        unpaid INTEGER NOT NULL CHECK (unpaid > 0),
        business_day TEXT NOT NULL,
        at INTEGER NOT NULL) STRICT, WITHOUT ROWID;
      CREATE INDEX walkouts_by_day ON walkouts (business_day);
    `);
  },
};

const floorPlan: Migration = {
  version: 18,
  name: 'the floor: sections and tables laid out on a grid (removed rows kept, versioned), and when each table was last cleared',
  up(db) {
    // Names are unique among the rows in use by their key (store/floor.ts nameKey); removed rows
    // stay as tombstones with their version, for the tills of one store to exchange (store mode).
    db.exec(`
      CREATE TABLE floor_sections (
        id TEXT PRIMARY KEY, name TEXT NOT NULL, name_key TEXT NOT NULL, position INTEGER NOT NULL,
        removed INTEGER NOT NULL DEFAULT 0 CHECK (removed IN (0, 1)), version INTEGER NOT NULL,
        updated_at INTEGER NOT NULL, updated_by TEXT) STRICT;
      CREATE UNIQUE INDEX floor_sections_by_name ON floor_sections (name_key) WHERE removed = 0;
      CREATE TABLE floor_tables (
        id TEXT PRIMARY KEY, section_id TEXT NOT NULL, name TEXT NOT NULL, name_key TEXT NOT NULL,
        seats INTEGER NOT NULL CHECK (seats > 0), shape TEXT NOT NULL CHECK (shape IN ('square', 'round', 'rect')),
        x INTEGER NOT NULL, y INTEGER NOT NULL, width INTEGER NOT NULL CHECK (width > 0), height INTEGER NOT NULL CHECK (height > 0),
        removed INTEGER NOT NULL DEFAULT 0 CHECK (removed IN (0, 1)), version INTEGER NOT NULL,
        updated_at INTEGER NOT NULL, updated_by TEXT) STRICT;
      CREATE UNIQUE INDEX floor_tables_by_name ON floor_tables (name_key) WHERE removed = 0;
      CREATE TABLE table_marks (
        table_id TEXT PRIMARY KEY, cleared_at INTEGER NOT NULL, updated_at INTEGER NOT NULL) STRICT, WITHOUT ROWID;
    `);
  },
};

const refundNote: Migration = {
  version: 19,
  name: "a refund's words: what happened, kept on this terminal (the cloud takes a reason from its list only)",
  up(db) {
    db.exec('ALTER TABLE refunds ADD COLUMN note TEXT;');
  },
};

const locationCountry: Migration = {
  version: 20,
  name: "the location's country (address.country): it picks the locale of dates and times",
  up(db) {
    db.exec('ALTER TABLE locations ADD COLUMN country TEXT;');
  },
};

const seatsAndCourses: Migration = {
  version: 21,
  name: "seats and courses: the store's courses (removed rows kept, versioned) and an order's courses held or fired",
  up(db) {
    // The defaults carry fixed ids: every till of a store starts with the same four, so store mode
    // has nothing to reconcile; a course added later gets an id made where it is created.
    db.exec(`
      CREATE TABLE floor_courses (
        id TEXT PRIMARY KEY, name TEXT NOT NULL, name_key TEXT NOT NULL, position INTEGER NOT NULL,
        removed INTEGER NOT NULL DEFAULT 0 CHECK (removed IN (0, 1)), version INTEGER NOT NULL,
        updated_at INTEGER NOT NULL, updated_by TEXT) STRICT;
      CREATE UNIQUE INDEX floor_courses_by_name ON floor_courses (name_key) WHERE removed = 0;
      INSERT INTO floor_courses (id, name, name_key, position, version, updated_at, updated_by) VALUES
        ('course_drinks', 'Drinks', 'drinks', 0, 1, 0, 'system'),
        ('course_starters', 'Starters', 'starters', 1, 1, 0, 'system'),
        ('course_mains', 'Mains', 'mains', 2, 1, 0, 'system'),
        ('course_dessert', 'Dessert', 'dessert', 3, 1, 0, 'system');
      ALTER TABLE orders ADD COLUMN courses TEXT CHECK (courses IS NULL OR json_valid(courses));
    `);
  },
};

const orderGratuity: Migration = {
  version: 22,
  name: 'automatic gratuity: the rule an order was placed under, and its removal',
  up(db) {
    db.exec(`ALTER TABLE orders ADD COLUMN gratuity TEXT CHECK (gratuity IS NULL OR json_valid(gratuity));`);
  },
};

const storeModeLog: Migration = {
  version: 23,
  name: "store mode: this till's log of its writes (with the file's log id) and the replicas of the other tills' logs",
  up(db) {
    // The log id is made once per file: a replaced file gets another, and peers read it again from 0.
    // Replicas are keyed by (origin, log_id, seq): a replaced log starts again at 1; op ids dedupe per origin.
    db.exec(`
      CREATE TABLE store_meta (key TEXT PRIMARY KEY, value TEXT NOT NULL) STRICT;
      INSERT INTO store_meta (key, value) VALUES ('log_id', lower(hex(randomblob(16))));
      CREATE TABLE store_log (
        seq INTEGER PRIMARY KEY AUTOINCREMENT, op_id TEXT NOT NULL UNIQUE, entity_kind TEXT NOT NULL, entity_id TEXT NOT NULL,
        body BLOB NOT NULL, created_at INTEGER NOT NULL) STRICT;
      CREATE TABLE store_replica_log (
        origin TEXT NOT NULL, log_id TEXT NOT NULL, seq INTEGER NOT NULL, op_id TEXT NOT NULL, body BLOB NOT NULL,
        PRIMARY KEY (origin, log_id, seq), UNIQUE (origin, op_id)) STRICT, WITHOUT ROWID;
      CREATE TABLE store_cursors (
        origin TEXT PRIMARY KEY, till_name TEXT, log_id TEXT, seq INTEGER NOT NULL DEFAULT 0, heard_at INTEGER,
        replaced INTEGER NOT NULL DEFAULT 0) STRICT;
      CREATE TABLE store_replica_docs (
        origin TEXT NOT NULL, entity_kind TEXT NOT NULL, entity_id TEXT NOT NULL, order_id TEXT, log_id TEXT NOT NULL,
        seq INTEGER NOT NULL, synced INTEGER NOT NULL CHECK (synced IN (0, 1)), doc TEXT CHECK (doc IS NULL OR json_valid(doc)),
        PRIMARY KEY (origin, entity_kind, entity_id)) STRICT, WITHOUT ROWID;
      CREATE INDEX store_replica_docs_by_order ON store_replica_docs (origin, order_id);
    `);
  },
};

const storeModeForwards: Migration = {
  version: 24,
  name: "store mode: changes this till forwards to another till's order, the forwards addressed to this till, and who serves each replicated order",
  up(db) {
    // store_forwards: this till's own forwards and the owner's answer. store_inbox: forwards other
    // tills addressed to this one, recorded with the page that brought them; a row leaves 'waiting'
    // in the very transaction that applies (or refuses) it, so each is applied once.
    // The trigger: an order's server is attributed after its create is logged, in the same
    // transaction; it writes the server into that (not yet committed) create entry.
    db.exec(`
      CREATE TABLE store_forwards (
        op_id TEXT PRIMARY KEY, owner TEXT NOT NULL, order_id TEXT NOT NULL, change TEXT NOT NULL CHECK (json_valid(change)),
        by_name TEXT NOT NULL, state TEXT NOT NULL CHECK (state IN ('pending', 'applied', 'refused')), reason TEXT,
        answered_seq INTEGER, created_at INTEGER NOT NULL, answered_at INTEGER) STRICT, WITHOUT ROWID;
      CREATE INDEX store_forwards_by_state ON store_forwards (state, created_at);
      CREATE TABLE store_inbox (
        seq INTEGER PRIMARY KEY, op_id TEXT NOT NULL UNIQUE, origin TEXT NOT NULL, order_id TEXT NOT NULL, body TEXT NOT NULL CHECK (json_valid(body)),
        state TEXT NOT NULL CHECK (state IN ('waiting', 'applied', 'refused')), reason TEXT,
        received_at INTEGER NOT NULL, answered_at INTEGER) STRICT;
      CREATE INDEX store_inbox_by_state ON store_inbox (state);
      ALTER TABLE store_replica_docs ADD COLUMN staff TEXT;
      CREATE TRIGGER store_log_order_server AFTER INSERT ON attributions WHEN NEW.entity_kind = 'order' BEGIN
        UPDATE store_log SET body = CAST(json_set(CAST(body AS TEXT), '$.staff', NEW.staff_id) AS BLOB)
        WHERE seq = (SELECT MAX(seq) FROM store_log) AND entity_kind = 'order' AND entity_id = NEW.entity_id
          AND json_extract(CAST(body AS TEXT), '$.op') = 'order.create';
      END;
    `);
  },
};

const orderLinks: Migration = {
  version: 25,
  name: "links between checks, the till's: a check merged into another, a closed check reopened as a new linked one",
  up(db) {
    // One row per (check, kind): a check is merged once and reopened once, so a repeat finds the
    // first link instead of making a second. other_id is indexed: a check finds what was merged into
    // it; a reopening has none until something is added (the linked check opens with its first lines).
    db.exec(`
      CREATE TABLE order_links (
        order_id TEXT NOT NULL, kind TEXT NOT NULL CHECK (kind IN ('merged_into', 'reopened_as')), other_id TEXT CHECK (other_id IS NOT NULL OR kind = 'reopened_as'),
        staff_id TEXT NOT NULL, approved_by TEXT, reason TEXT, business_day TEXT NOT NULL, at INTEGER NOT NULL,
        PRIMARY KEY (order_id, kind)) STRICT, WITHOUT ROWID;
      CREATE INDEX order_links_by_other ON order_links (other_id, kind);
      CREATE INDEX order_links_by_day ON order_links (business_day, kind);
    `);
  },
};

const kitchenDisplay: Migration = {
  version: 26,
  name: 'the kitchen display: the lines each ticket first showed, the tickets bumped and recalled; replicated documents found by entity',
  up(db) {
    // kitchen_bumps keeps its rowid: two bumps in one millisecond are told apart by it (the last bumped is recalled).
    // The replicas' index: the display (and forwarding) look an order up by its id, whatever till holds it.
    db.exec(`
      CREATE TABLE kitchen_seen (order_id TEXT PRIMARY KEY, lines TEXT NOT NULL CHECK (json_valid(lines)), shown_at INTEGER NOT NULL) STRICT;
      CREATE TABLE kitchen_bumps (
        order_id TEXT PRIMARY KEY, label TEXT NOT NULL, bumped_at INTEGER NOT NULL, recalled_at INTEGER,
        delivery TEXT NOT NULL CHECK (delivery IN ('here', 'forwarded', 'closed', 'station', 'served')), forward_id TEXT) STRICT;
      CREATE INDEX store_replica_docs_by_entity ON store_replica_docs (entity_kind, entity_id);
    `);
  },
};

const storeStaff: Migration = {
  version: 27,
  name: "store mode: staff are the store's, each row knows the till that wrote its version",
  up(db) {
    // written_by: the till id whose write this version is (store-staff.ts): it breaks a tie of two
    // writes at the same ms the same way on every till. NULL: written here and not yet in the log
    // (before store mode, or while the link was stopped): the link logs it when it starts.
    db.exec('ALTER TABLE staff ADD COLUMN written_by TEXT;');
  },
};

const storeAdoptions: Migration = {
  version: 28,
  name: "store mode: orders adopted from a till that went quiet, as every till learns of them; each replicated entity's cloud id",
  up(db) {
    // One row per order taken from a till (from_till, order_id): the quiet till's copies are hidden
    // on every till, and the quiet till, back, gives the order up once (surrendered_at), before it pushes.
    // server_id: the cloud id its owner logged, so the cloud's copy of another till's order is known as its.
    db.exec(`
      CREATE TABLE store_adopted (
        from_till TEXT NOT NULL, order_id TEXT NOT NULL, adopter TEXT NOT NULL, op_ids TEXT NOT NULL CHECK (json_valid(op_ids)),
        adopted_at INTEGER NOT NULL, surrendered_at INTEGER,
        PRIMARY KEY (from_till, order_id)) STRICT, WITHOUT ROWID;
      ALTER TABLE store_replica_docs ADD COLUMN server_id TEXT;
      CREATE INDEX store_replica_docs_by_server ON store_replica_docs (server_id) WHERE server_id IS NOT NULL;
      CREATE INDEX store_replica_docs_unsynced ON store_replica_docs (origin, order_id, synced);
      CREATE INDEX store_replica_docs_by_status ON store_replica_docs (entity_kind, json_extract(doc, '$.status'));
    `);
  },
};

const staffFieldTimes: Migration = {
  version: 29,
  name: "store mode: when each field of a staff member was last written, merged field by field across the store's tills",
  up(db) {
    // JSON { name, role, pin_hash, active } of ms; NULL: every field at the row's updated_at (store-staff.ts).
    db.exec('ALTER TABLE staff ADD COLUMN field_times TEXT CHECK (field_times IS NULL OR json_valid(field_times));');
  },
};

const replicasAppended: Migration = {
  version: 30,
  name: "store mode: the replicas as rowid tables, appended in the order pulled, with only the keys their reads and exactly-once need",
  up(db) {
    // A catch-up writes thousands of entries (docs/store-mode-catch-up.md). As WITHOUT ROWID tables keyed by
    // random ids, each entry rewrote a leaf page of its own in every key, and a body or document over ~1 KB
    // spilled to an overflow page of its own. As rowid tables, rows are appended in the order pulled, in-row
    // up to ~4 KB. What each key was for:
    // - store_replica_log (origin, op_id) unique: an entry is applied once per origin. (origin, log_id, seq)
    //   is not kept: no query looks an entry up by it, and a peer's seqs are unique in its log anyway.
    // - store_replica_docs (entity_kind, entity_id, origin) unique: the upsert's conflict target, and the
    //   lookup of an entity whatever till holds it (the name of the index it replaces, for INDEXED BY).
    // - store_replica_docs_by_order, now (origin, order_id, entity_kind, synced), also serves what the dropped
    //   store_replica_docs_unsynced (origin, order_id, synced) did: what an order's documents of a kind come to,
    //   and what of it the cloud lacks (with _unsynced alone, the listing's sums were planned on _by_status).
    db.exec(`
      CREATE TABLE store_replica_log_appended (
        origin TEXT NOT NULL, log_id TEXT NOT NULL, seq INTEGER NOT NULL, op_id TEXT NOT NULL, body BLOB NOT NULL) STRICT;
      INSERT INTO store_replica_log_appended (origin, log_id, seq, op_id, body)
        SELECT origin, log_id, seq, op_id, body FROM store_replica_log ORDER BY origin, log_id, seq;
      DROP TABLE store_replica_log;
      ALTER TABLE store_replica_log_appended RENAME TO store_replica_log;
      CREATE UNIQUE INDEX store_replica_log_by_op ON store_replica_log (origin, op_id);

      CREATE TABLE store_replica_docs_appended (
        origin TEXT NOT NULL, entity_kind TEXT NOT NULL, entity_id TEXT NOT NULL, order_id TEXT, log_id TEXT NOT NULL,
        seq INTEGER NOT NULL, synced INTEGER NOT NULL CHECK (synced IN (0, 1)), doc TEXT CHECK (doc IS NULL OR json_valid(doc)),
        staff TEXT, server_id TEXT) STRICT;
      INSERT INTO store_replica_docs_appended (origin, entity_kind, entity_id, order_id, log_id, seq, synced, doc, staff, server_id)
        SELECT origin, entity_kind, entity_id, order_id, log_id, seq, synced, doc, staff, server_id FROM store_replica_docs ORDER BY origin, seq;
      DROP TABLE store_replica_docs;
      ALTER TABLE store_replica_docs_appended RENAME TO store_replica_docs;
      CREATE UNIQUE INDEX store_replica_docs_by_entity ON store_replica_docs (entity_kind, entity_id, origin);
      CREATE INDEX store_replica_docs_by_server ON store_replica_docs (server_id) WHERE server_id IS NOT NULL;
      CREATE INDEX store_replica_docs_by_order ON store_replica_docs (origin, order_id, entity_kind, synced);
      CREATE INDEX store_replica_docs_by_status ON store_replica_docs (entity_kind, json_extract(doc, '$.status'));
    `);
  },
};

const storePaymentsTaken: Migration = {
  version: 31,
  name: "store mode: payments taken here toward other tills' orders",
  up(db) {
    // The money is this till's (its drawer, its terminal) while the order is another till's: the
    // drawer's figures read it here, the owner records the payment on the order (forward_id).
    db.exec(`
      CREATE TABLE store_payments_taken (
        id TEXT PRIMARY KEY,
        forward_id TEXT NOT NULL UNIQUE REFERENCES store_forwards (op_id),
        order_id TEXT NOT NULL,
        method TEXT NOT NULL CHECK (method IN ('cash', 'card')),
        amount INTEGER NOT NULL CHECK (amount > 0),
        tip INTEGER NOT NULL CHECK (tip >= 0),
        currency TEXT NOT NULL,
        shift_id TEXT REFERENCES shifts (id),
        staff_id TEXT NOT NULL,
        taken_at INTEGER NOT NULL,
        given_back_movement TEXT REFERENCES cash_movements (id)) STRICT;
      CREATE INDEX store_payments_taken_by_shift ON store_payments_taken (shift_id);
      CREATE INDEX store_payments_taken_by_order ON store_payments_taken (order_id);
    `);
  },
};

const paymentGratuityParts: Migration = {
  version: 32,
  name: "automatic gratuity: the part of each payment's tip that was the gratuity when it was taken",
  up(db) {
    // NULL: taken before the till recorded it; the view works that payment's part out as it did then.
    db.exec(`
      ALTER TABLE payment_intents ADD COLUMN gratuity INTEGER CHECK (gratuity IS NULL OR gratuity >= 0);
      ALTER TABLE payments ADD COLUMN gratuity INTEGER CHECK (gratuity IS NULL OR gratuity >= 0);
    `);
  },
};

const staffSharedPins: Migration = {
  version: 33,
  name: 'store mode: who shares a PIN with whom, so a PIN found shared stays refused after a restart',
  up(db) {
    // One row per member found sharing a PIN (shared-pins.ts): their group, and hash_ref, SHA-256 of the
    // scrypt string they had then (salt included): whether they still have it, never the PIN or a digest
    // of it. A row whose member has another hash since no longer counts, and is deleted when next read.
    db.exec(`
      CREATE TABLE staff_shared_pins (
        staff_id TEXT PRIMARY KEY,
        group_id TEXT NOT NULL,
        hash_ref TEXT NOT NULL,
        found_at INTEGER NOT NULL) STRICT;
      CREATE INDEX staff_shared_pins_by_group ON staff_shared_pins (group_id);
    `);
  },
};

/** The app's migrations, oldest first. */
export const STORE_MIGRATIONS: readonly Migration[] = [
  domainAndOutbox, auditLog, paymentLookups, outboxDrainOrder, deadLetterRefusal, orderLinesInline, repricedOrders, lineChangeBase,
  unappliedWebhookEvents, menuItemBarcode, yearOfOrders, checkout, printJobs, staffAndShifts, pinAttempts, bridgeRequests,
  walkouts, floorPlan, refundNote, locationCountry, seatsAndCourses, orderGratuity,
  storeModeLog, storeModeForwards, orderLinks, kitchenDisplay, storeStaff, storeAdoptions, staffFieldTimes, replicasAppended, storePaymentsTaken,
  paymentGratuityParts, staffSharedPins,
];
