// Finding whose PIN it is (main/config/manager-pin.ts holds the hash format). A PIN is checked
// against the staff hashes one after the other, on the core's one scrypt thread (a thread of its
// own, for memory: main/config/scrypt-thread.ts). A wrong PIN is always checked against every hash,
// so its answer takes as long whatever it is and its timing names no one; a right PIN stops at its
// owner's hash (who learns nothing new).
// An approval looks among managers and owners only, an owner's override among owners only: any
// other PIN (a cashier's) is checked against every one of them, as a wrong PIN is.
import { createHmac, randomBytes } from 'node:crypto';
import { pinMatches } from '../../config/manager-pin';

/**
 * Who a PIN belongs to among `candidates`. A person who signed in once since launch is found again
 * at once through a keyed digest held in memory only (a fresh key each launch; forgotten whenever
 * the staff list changes), so switching back and forth costs no hashing. Nothing of it is stored.
 */
export class PinDirectory {
  #key = randomBytes(32);
  #known = new Map<string, string>();
  /** Order of the last sign-ins since launch (kept across `forget`: it holds no PIN). */
  #lastSeen = new Map<string, number>();
  #seen = 0;

  #digest(pin: string): string {
    return createHmac('sha256', this.#key).update(pin).digest('base64');
  }

  /** The staff list changed (a PIN, a role, someone deactivated): forget what was learned. */
  forget(): void {
    this.#key = randomBytes(32);
    this.#known.clear();
  }

  /** Who a PIN belongs to if they signed in with it since launch (no hashing); null otherwise. */
  known<T extends { id: string }>(pin: string, candidates: readonly T[]): T | null {
    const knownId = this.#known.get(this.#digest(pin));
    return (knownId === undefined ? undefined : candidates.find((c) => c.id === knownId)) ?? null;
  }

  async find<T extends { id: string; pin_hash: string }>(pin: string, candidates: readonly T[]): Promise<T | null> {
    const known = this.known(pin, candidates);
    if (known) return known;
    // Those who signed in most recently first: the regulars are found first.
    const ordered = [...candidates].sort((a, b) => (this.#lastSeen.get(b.id) ?? 0) - (this.#lastSeen.get(a.id) ?? 0));
    // One at a time: the scrypt thread hashes one at a time anyway, and a right PIN hashes no one after its owner.
    for (const candidate of ordered) {
      if (await pinMatches(pin, candidate.pin_hash)) {
        this.#known.set(this.#digest(pin), candidate.id);
        this.#lastSeen.set(candidate.id, ++this.#seen);
        return candidate;
      }
    }
    return null;
  }
}
