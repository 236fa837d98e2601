// How old a ticket is, in the colour a kitchen reads from across the room and in words for eyes that
// do not tell the colours apart: amber from the configured minutes on, then red.
import type { KitchenSetup } from '../../bridge/kitchen/contract';
import { formatAge } from '../lib/format';

export type AgeLevel = 'fresh' | 'amber' | 'red';

export interface TicketAge {
  level: AgeLevel;
  /** "4 min", "16 min · Late" */
  text: string;
}

const LEVEL_WORDS: Record<AgeLevel, string> = { fresh: '', amber: 'Waiting', red: 'Late' };

export function ticketAge(ageMs: number, setup: Pick<KitchenSetup, 'amberMinutes' | 'redMinutes'>): TicketAge {
  const minutes = ageMs / 60_000;
  const level: AgeLevel = minutes >= setup.redMinutes ? 'red' : minutes >= setup.amberMinutes ? 'amber' : 'fresh';
  const age = formatAge(Math.max(0, ageMs));
  return { level, text: level === 'fresh' ? age : `${age} · ${LEVEL_WORDS[level]}` };
}
