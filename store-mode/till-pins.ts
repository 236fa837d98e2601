// The first sighting of a till pins its name to its id (and so to its key: the id is the key's hash).
// Afterwards a certificate presenting a pinned name with another id is refused: a second "Bar" is either
// an impostor holding the store secret or a reinstalled till, and telling which is a person's call.

export interface TillPins {
  /** Pins on first sight; false when the name is already pinned to another till id. */
  sight(tillId: string, tillName: string): boolean;
}

/**
 * Pins held for the life of the process. The store-backed pins (`store_tills`, docs/store-mode.md) will
 * replace it once the store's repository exists; the rule is the same.
 */
export function pinsInMemory(): TillPins {
  const tillIdByName = new Map<string, string>();
  return {
    sight(tillId, tillName) {
      const key = tillName.toLowerCase();
      const pinned = tillIdByName.get(key);
      if (pinned === undefined) {
        tillIdByName.set(key, tillId);
        return true;
      }
      return pinned === tillId;
    },
  };
}
