/**
 * Said under a text field whose value has reached the most the core takes (the field's maxLength,
 * the schema's max): a paste that went past it was cut by the browser, so the cut is never silent.
 */
export function TextLimit({ id, value, max, what }: { id: string; value: string; max: number; what: string }) {
  if (value.length < max) return null;
  return (
    <p id={id} className="field-limit" role="status">
      {what} can be at most {max} characters: anything past that is not taken.
    </p>
  );
}

/** The ids a field points at (aria-describedby): its refusal and its length note, whichever are shown. */
export function describedByAll(entries: readonly [id: string, shown: boolean][]): string | undefined {
  const ids = entries.filter(([, shown]) => shown).map(([id]) => id);
  return ids.length > 0 ? ids.join(' ') : undefined;
}
