// The rules of an item's modifier groups, as the chooser applies them: what each group asks for,
// what is still missing, and what a tap does. Pure, so the limits are tested without a screen.
import type { MenuItem, Modifier, ModifierGroup } from '../../bridge/contract';

/** The most characters a line's note may have (the bridge refuses more). */
export const MAX_NOTE_LENGTH = 140;

/** Whether tapping the item asks for choices first (instead of adding it straight away). */
export function needsChooser(item: MenuItem): boolean {
  return item.modifierGroups.length > 0;
}

/** A group's rule in the cashier's words: "Choose 1", "Up to 3", "Choose 1 to 2", "Optional". */
export function groupRule(group: ModifierGroup): string {
  const { min, max } = group;
  if (max === null) return min === 0 ? 'Optional' : `Choose at least ${min}`;
  if (min === max) return `Choose ${min}`;
  if (min === 0) return `Up to ${max}`;
  return `Choose ${min} to ${max}`;
}

/** A group whose choices exclude each other: shown as radio buttons. */
export function isSingleChoice(group: ModifierGroup): boolean {
  return group.max === 1;
}

/** The group's modifiers, in the group's order (ids the item does not carry are skipped). */
export function groupModifiers(item: MenuItem, group: ModifierGroup): Modifier[] {
  const byId = new Map(item.modifiers.map((modifier) => [modifier.id, modifier]));
  return group.modifierIds.flatMap((id) => byId.get(id) ?? []);
}

/** Modifiers in no group: free extras, any number of them. */
export function extrasOf(item: MenuItem): Modifier[] {
  const grouped = new Set(item.modifierGroups.flatMap((group) => group.modifierIds));
  return item.modifiers.filter((modifier) => !grouped.has(modifier.id));
}

function chosenIn(group: ModifierGroup, chosen: readonly string[]): number {
  return chosen.filter((id) => group.modifierIds.includes(id)).length;
}

/** What the group still needs ("Choose 1 more"), or null when it is satisfied. */
export function missingInGroup(group: ModifierGroup, chosen: readonly string[]): string | null {
  const count = chosenIn(group, chosen);
  if (count < group.min) return count === 0 ? `Required: choose ${group.min}` : `Choose ${group.min - count} more`;
  if (group.max !== null && count > group.max) return `Choose at most ${group.max}`;
  return null;
}

/** The groups not satisfied yet, by name: what keeps "Add" disabled. */
export function unsatisfiedGroups(item: MenuItem, chosen: readonly string[]): ModifierGroup[] {
  return item.modifierGroups.filter((group) => missingInGroup(group, chosen) !== null);
}

/** Whether `modifierId` can be ticked now: a full group takes no more (untick one first). */
export function canChoose(group: ModifierGroup, chosen: readonly string[], modifierId: string): boolean {
  if (chosen.includes(modifierId) || isSingleChoice(group)) return true;
  return group.max === null || chosenIn(group, chosen) < group.max;
}

/**
 * The choice after tapping `modifierId` in `group`: a single-choice group swaps to it, others
 * toggle it, and a tap past the group's limit changes nothing.
 */
export function chooseInGroup(chosen: readonly string[], group: ModifierGroup, modifierId: string): string[] {
  if (isSingleChoice(group)) return [...chosen.filter((id) => !group.modifierIds.includes(id)), modifierId];
  if (chosen.includes(modifierId)) return chosen.filter((id) => id !== modifierId);
  return canChoose(group, chosen, modifierId) ? [...chosen, modifierId] : [...chosen];
}

/** Clears a single-choice group that is optional ("None"). */
export function clearGroup(chosen: readonly string[], group: ModifierGroup): string[] {
  return chosen.filter((id) => !group.modifierIds.includes(id));
}

export function toggleExtra(chosen: readonly string[], modifierId: string): string[] {
  return chosen.includes(modifierId) ? chosen.filter((id) => id !== modifierId) : [...chosen, modifierId];
}

/** The chosen modifiers in the menu's order, so the kitchen reads them as the screen shows them. */
export function inMenuOrder(item: MenuItem, chosen: readonly string[]): string[] {
  return item.modifiers.flatMap((modifier) => (chosen.includes(modifier.id) ? [modifier.id] : []));
}

/** The note as it will be sent, or why it cannot be. */
export function readNote(text: string): { note: string; error: null } | { note: null; error: string } {
  const note = text.trim();
  if (note.length > MAX_NOTE_LENGTH) return { note: null, error: `A note is at most ${MAX_NOTE_LENGTH} characters (this one has ${note.length}).` };
  return { note, error: null };
}
