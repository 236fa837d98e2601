// The business day: it turns at 04:00 on the location's wall clock, so a late service still
// belongs to its evening, whatever the night's length on the days the clocks change. The core
// dates orders and the end-of-day report with it; the Orders screen's date filter reads it back.
// Pure (Intl only): the core and the page share it.

/** The hour, on the location's wall clock, at which one business day ends and the next begins. */
export const BUSINESS_DAY_STARTS_HOUR = 4;

/** The calendar date of YYYY-MM-DD at midnight UTC (years below 100 too, which Date.UTC would move). */
function utcDate(day: string): Date {
  const [y = NaN, m = NaN, d = NaN] = day.split('-').map(Number);
  const date = new Date(0);
  date.setUTCFullYear(y, m - 1, d);
  return date;
}

/** The day after YYYY-MM-DD. */
export function nextDay(day: string): string {
  const date = utcDate(day);
  date.setUTCDate(date.getUTCDate() + 1);
  return `${String(date.getUTCFullYear()).padStart(4, '0')}-${String(date.getUTCMonth() + 1).padStart(2, '0')}-${String(date.getUTCDate()).padStart(2, '0')}`;
}

const WALL_CLOCK = { hourCycle: 'h23', year: 'numeric', month: 'numeric', day: 'numeric', hour: 'numeric', minute: 'numeric', second: 'numeric' } as const;

function wallClock(timeZone: string): Intl.DateTimeFormat {
  try {
    return new Intl.DateTimeFormat('en-US', { ...WALL_CLOCK, timeZone: timeZone || undefined });
  } catch {
    // A zone this browser does not know (the core checked it): this computer's, as format.ts tells the times.
    return new Intl.DateTimeFormat('en-US', WALL_CLOCK);
  }
}

/** How far `timeZone`'s wall clock is ahead of UTC at `ms` ('' this computer's zone). */
function offsetAt(ms: number, timeZone: string): number {
  const parts = wallClock(timeZone).formatToParts(ms);
  const field = (type: Intl.DateTimeFormatPartTypes) => Number(parts.find((part) => part.type === type)?.value);
  const wall = new Date(0);
  wall.setUTCFullYear(field('year'), field('month') - 1, field('day'));
  wall.setUTCHours(field('hour'), field('minute'), field('second'));
  return wall.getTime() - Math.floor(ms / 1000) * 1000;
}

/** The instant the business day `day` (YYYY-MM-DD) begins: 04:00 on its date where the location is. */
export function businessDayStart(day: string, timeZone: string): number {
  const wall = utcDate(day).getTime() + BUSINESS_DAY_STARTS_HOUR * 3_600_000;
  // The zone's offset at a first guess, then at the instant that gives: they differ across a change of clocks.
  const guess = wall - offsetAt(wall, timeZone);
  return wall - offsetAt(guess, timeZone);
}

/**
 * The business day `ms` belongs to where the location is ('' this computer's zone), YYYY-MM-DD,
 * and the instant it began: the wall clock's date, or the date before when the wall clock reads
 * before 04:00.
 */
export function businessDayAt(ms: number, timeZone: string): { day: string; startedAt: number } {
  const parts = wallClock(timeZone).formatToParts(ms);
  const field = (type: Intl.DateTimeFormatPartTypes) => Number(parts.find((part) => part.type === type)?.value);
  const date = new Date(0);
  date.setUTCFullYear(field('year'), field('month') - 1, field('day'));
  if (field('hour') < BUSINESS_DAY_STARTS_HOUR) date.setUTCDate(date.getUTCDate() - 1);
  const day = `${String(date.getUTCFullYear()).padStart(4, '0')}-${String(date.getUTCMonth() + 1).padStart(2, '0')}-${String(date.getUTCDate()).padStart(2, '0')}`;
  return { day, startedAt: businessDayStart(day, timeZone) };
}
