// The kitchen room's commands (bridge/kitchen/contract.ts) as the core's dispatcher runs them, and the
// role gate main/core/index.ts puts in front of every command. The room reaches the rest of the core
// only through what index.ts hands it, and store mode's forwarding (a bump is a change sent to the
// order's till).
import type { z } from 'zod';
import type { kitchenCommands } from '../../../bridge/kitchen/contract';
import type { CommandContext } from '../dispatch';
import type { StoreLink } from '../store-link';
import { ForwardDesk, type ForwardingDeps } from '../store-mode/forwarding';
import type { TerminalConfig } from '../../config/schema';
import { KitchenDesk } from './desk';
import { RoleGate } from './role-gate';

type Commands = typeof kitchenCommands;
export type KitchenHandlers = { [C in keyof Commands]: (payload: z.output<Commands[C]['payload']>, context: CommandContext) => z.output<Commands[C]['result']> };

export interface KitchenRoomDeps extends ForwardingDeps {
  config: Pick<TerminalConfig, 'role' | 'kitchen' | 'printing'>;
}

/** The gate of this device's role (index.ts: in front of the invoker, and first in its prepare). */
export function kitchenRoleGate(config: Pick<TerminalConfig, 'role' | 'kitchen'>): RoleGate {
  return new RoleGate(config.role, config.kitchen.station);
}

/** `link`: the session's store link, null while store mode is off (a kitchen display always has one). */
export function kitchenHandlers(link: () => StoreLink | null, deps: KitchenRoomDeps): KitchenHandlers {
  const { store, cashier, clock, config } = deps;
  const forwarding = new ForwardDesk(deps, link);
  const desk = new KitchenDesk({
    store,
    clock,
    config,
    lookups: {
      categoryOf: (menuItemId) => cashier.categoryOf(menuItemId),
      courseName: (courseId) => store.floor.courses().find((course) => course.id === courseId)?.name ?? null,
    },
    fulfilOwn: (orderId, act) => void cashier.fulfilOrder({ id: orderId }, act),
    forward: { change: (payload, act) => forwarding.change(payload, act), forwards: () => forwarding.forwards(), state: (forwardId) => store.log.forwards.state(forwardId) },
  });
  return {
    'kitchen.display': () => desk.setup(),
    'kitchen.tickets': (p) => desk.tickets(p),
    'kitchen.bump': ({ orderId }, c) => desk.bump(orderId, c.act()),
    'kitchen.recall': ({ orderId }) => desk.recall(orderId),
  };
}
