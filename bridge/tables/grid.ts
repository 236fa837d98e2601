// The floor's grid and its limits, apart so the contract and the layout rules share them without a cycle.

/** The floor is laid out on a grid of this many cells per section; the screen scales it to fit. */
export const FLOOR_GRID = { columns: 24, rows: 16 } as const;
export const FLOOR_LIMITS = { sections: 12, tables: 200, seats: 40 } as const;
/** The store's courses: at most this many, each name at most this long. */
export const COURSE_LIMITS = { courses: 8, name: 20 } as const;
