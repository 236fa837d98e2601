// The kitchen room's side of the bridge (docs/kitchen-display.md): what this device is (a register or
// a kitchen display), the store's open orders as kitchen tickets for one station or all, and bump and
// recall. Its shapes stand alone: bridge/contract.ts merges the commands in.
import { z } from 'zod';
import { command, IsoTime } from '../primitives';

const OrderId = z.string().min(1).max(100);

export const DeviceRole = z.enum(['register', 'kitchen']);
export type DeviceRole = z.infer<typeof DeviceRole>;

/** What the renderer needs before it shows anything: which app, and the display's settings. */
export const KitchenSetup = z.object({
  role: DeviceRole,
  /** The configured station; null: every station. */
  station: z.string().nullable(),
  /** The stations of the print routing (the printers it sends kitchen lines to). */
  stations: z.array(z.string()),
  /** A ticket this old (minutes) turns amber, then red. */
  amberMinutes: z.number().int().positive(),
  redMinutes: z.number().int().positive(),
});
export type KitchenSetup = z.infer<typeof KitchenSetup>;

/** add: on the order since its ticket was first shown here; void: taken off since; fire: its held course fired since. */
export const KitchenLineMark = z.enum(['add', 'void', 'fire']);
export type KitchenLineMark = z.infer<typeof KitchenLineMark>;

export const KitchenTicketLine = z.object({
  name: z.string(),
  quantity: z.number().int().positive(),
  modifiers: z.array(z.string()),
  note: z.string(),
  seat: z.number().int().positive().nullable(),
  /** The course's name; null: none. */
  course: z.string().nullable(),
  /** The station the line routes to. */
  station: z.string(),
  mark: KitchenLineMark.nullable(),
});
export type KitchenTicketLine = z.infer<typeof KitchenTicketLine>;

export const KitchenTicket = z.object({
  orderId: OrderId,
  /** What people call the order: its number, else the end of its id. */
  label: z.string(),
  service: z.enum(['dine_in', 'takeout', 'delivery']).nullable(),
  table: z.string().nullable(),
  customerName: z.string().nullable(),
  /** When the order was placed: the screen counts the age from it. */
  placedAt: IsoTime,
  /** The till that owns it; null: this display's own (an online order from the cloud). */
  tillName: z.string().nullable(),
  /** Brought back by a recall (it may be fulfilled at its till meanwhile). */
  recalled: z.boolean(),
  lines: z.array(KitchenTicketLine).min(1),
});
export type KitchenTicket = z.infer<typeof KitchenTicket>;

export const KitchenBumped = z.object({
  orderId: OrderId,
  label: z.string(),
  bumpedAt: IsoTime,
  /** What became of the order at its till, in words: "Sent to Bar", "Bar marked it fulfilled", "Bar refused: …". */
  sentence: z.string(),
});
export type KitchenBumped = z.infer<typeof KitchenBumped>;

export const KitchenTickets = z.object({
  /** The station shown; null: every station. */
  station: z.string().nullable(),
  /** Oldest first. */
  tickets: z.array(KitchenTicket),
  /** Each item on the tickets shown, with its total quantity (voided units left out), most first. */
  allDay: z.array(z.object({ name: z.string(), quantity: z.number().int().positive() })),
  /** What R recalls: the last ticket bumped and not recalled; null: none. */
  lastBumped: KitchenBumped.nullable(),
  /** The display's clock when it answered: the screen's ages count from it. */
  now: IsoTime,
});
export type KitchenTickets = z.infer<typeof KitchenTickets>;

export const kitchenCommands = {
  /** This device's role and, on a kitchen display, its station and ticket colours. Answered before anyone signs in. */
  'kitchen.display': command(z.strictObject({}).default({}), KitchenSetup),
  /** The tickets of the store's open orders that went to the kitchen, for `station` (default: the configured one). */
  'kitchen.tickets': command(z.strictObject({ station: z.string().trim().min(1).max(32).optional() }).default({}), KitchenTickets),
  /** Takes the ticket off the display and marks the order fulfilled at its till. A repeat answers the first bump. */
  'kitchen.bump': command(z.strictObject({ orderId: OrderId }), KitchenBumped),
  /** Brings a bumped ticket back (the screen's R names the last one). A repeat changes nothing. */
  'kitchen.recall': command(z.strictObject({ orderId: OrderId }), KitchenTicket.pick({ orderId: true, label: true, recalled: true })),
};

/** The commands a kitchen display answers (with the status reads, main/core/kitchen/role-gate.ts); kitchen.display is every device's. */
export const KITCHEN_COMMANDS = Object.keys(kitchenCommands) as (keyof typeof kitchenCommands)[];
