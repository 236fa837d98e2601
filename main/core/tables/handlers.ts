// The tables room's commands, as the core's dispatcher runs them (bridge/tables/contract.ts).
import type { tableCommands } from '../../../bridge/tables/contract';
import type { Handlers } from '../dispatch';
import type { TablesDesk } from './desk';

export function tableHandlers(desk: TablesDesk): Pick<Handlers, keyof typeof tableCommands> {
  return {
    'tables.floor': () => desk.floor(),
    'tables.saveSection': ({ id, name, position }, c) => desk.saveSection(c.act(), { id, name, position }),
    'tables.removeSection': ({ id }, c) => desk.removeSection(c.act(), id),
    'tables.saveTable': ({ managerPin: _pin, ...table }, c) => desk.saveTable(c.act(), table),
    'tables.removeTable': ({ id }, c) => desk.removeTable(c.act(), id),
    'tables.printBill': ({ id }, c) => desk.printBill(c.act(), id),
    'tables.clear': ({ id }, c) => desk.clear(c.act(), id),
    'tables.courses': () => desk.courses(),
    'tables.saveCourses': ({ courses }, c) => desk.saveCourses(c.act(), courses),
  };
}
