// One row per tax as a customer reads it. A check keeps a tax line per tax class (priceCheck), so
// a venue whose food and drinks classes both charge "Sales tax 8.75%" has two lines with the same
// name and rate: a receipt, the order on screen and the Z report show them as one. Pure.

/** A tax as a check or a day's sales carry it. */
export interface NamedTaxAmount {
  name: string;
  /** Parts per million (87_500 = 8.75%). */
  ratePpm: number;
  amount: number;
}

/**
 * Lines of the same name and rate added together, in the order each first appears; other
 * fields are dropped. Integer sums: the merged amounts add up to the lines' amounts to the unit.
 */
export function mergeTaxLines(lines: readonly NamedTaxAmount[]): NamedTaxAmount[] {
  const merged = new Map<string, NamedTaxAmount>();
  for (const line of lines) {
    const key = JSON.stringify([line.name, line.ratePpm]);
    const row = merged.get(key);
    if (row) row.amount += line.amount;
    else merged.set(key, { name: line.name, ratePpm: line.ratePpm, amount: line.amount });
  }
  return [...merged.values()];
}
