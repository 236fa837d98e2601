// Finding whose PIN it is (main/config/manager-pin.ts holds the hash format). A PIN is checked
// against the staff hashes one after the other, on the core's one scrypt thread (a thread of its
// own, for memory: main/config/scrypt-thread.ts). A wrong PIN is always checked against every hash,
// so its answer takes as long whatever it is and its timing names no one; a right PIN stops at its
// owner's hash (who learns nothing new).
// An approval looks among managers and owners only, an owner's override among owners only: any
// other PIN (a cashier's) is checked against every one of them, as a wrong PIN is.
// In store mode two people added with the same PIN on two tills before they met are both on every
// till (salted hashes cannot be compared without the PIN): such a PIN, once found, is remembered as
// shared and names no one until one of them is given a new PIN (docs/staff.md, "A PIN two people share").
// The store records who shares it (store/shared-pins.ts: ids and hash references, never the PIN), which
// a restart keeps; what is here is the same knowledge by PIN, for this launch only, so that a PIN known
// to be shared is refused before any hashing.
import { createHmac, randomBytes } from 'node:crypto';
import { pinMatches } from '../../config/manager-pin';

interface Hashed {
  id: string;
  pin_hash: string;
}

/** A learned PIN: whose it is, and whether every active member's hash was checked against it. */
interface Learned {
  id: string;
  checkedAll: boolean;
}

/**
 * Who a PIN belongs to among `candidates`. A person who signed in once since launch is found again
 * at once through a keyed digest held in memory only (a fresh key each launch; forgotten whenever
 * the staff list changes), so switching back and forth costs no hashing. Nothing of it is stored.
 */
export class PinDirectory {
  #key = randomBytes(32);
  #known = new Map<string, Learned>();
  /** Moves at each `forget`: a check begun before a change of the staff confirms nothing after it. */
  #generation = 0;
  /** Order of the last sign-ins since launch (kept across `forget`: it holds no PIN). */
  #lastSeen = new Map<string, number>();
  #seen = 0;
  /**
   * Shared PINs, by a digest under a key of their own, in memory only (kept across `forget`: a change
   * of the staff that gives neither a new PIN leaves the PIN shared): who shares it, with the hash each
   * had then. The store's record (store/shared-pins.ts) is what outlives the launch.
   */
  #sharedKey = randomBytes(32);
  #shared = new Map<string, Map<string, string>>();

  #digest(pin: string): string {
    return createHmac('sha256', this.#key).update(pin).digest('base64');
  }

  /** The staff list changed (a PIN, a role, someone deactivated): forget what was learned. */
  forget(): void {
    this.#key = randomBytes(32);
    this.#known.clear();
    this.#generation++;
  }

  /** Where `forget` stands: given back to `confirmAlone`, which confirms nothing once it moved. */
  generation(): number {
    return this.#generation;
  }

  /** Who a PIN belongs to if they signed in with it since launch (no hashing); null otherwise. */
  known<T extends { id: string }>(pin: string, candidates: readonly T[]): T | null {
    const knownId = this.#known.get(this.#digest(pin))?.id;
    return (knownId === undefined ? undefined : candidates.find((c) => c.id === knownId)) ?? null;
  }

  /** Whether the learned PIN was checked against every active member's hash since the staff last changed. */
  checkedAll(pin: string): boolean {
    return this.#known.get(this.#digest(pin))?.checkedAll ?? false;
  }

  #learn(pin: string, id: string, checkedAll: boolean): void {
    this.#known.set(this.#digest(pin), { id, checkedAll });
    this.#lastSeen.set(id, ++this.#seen);
  }

  async find<T extends Hashed>(pin: string, candidates: readonly T[]): Promise<T | null> {
    return (await this.findFirst(pin, candidates))?.found ?? null;
  }

  /**
   * The first of `candidates` whose hash the PIN matches, and `rest`: the candidates not hashed
   * (those after it; all the others when it was learned before), for `confirmAlone`.
   */
  async findFirst<T extends Hashed>(pin: string, candidates: readonly T[]): Promise<{ found: T; rest: T[] } | null> {
    const known = this.known(pin, candidates);
    if (known) return { found: known, rest: candidates.filter((c) => c.id !== known.id) };
    // Those who signed in most recently first: the regulars are found first.
    const ordered = [...candidates].sort((a, b) => (this.#lastSeen.get(b.id) ?? 0) - (this.#lastSeen.get(a.id) ?? 0));
    // One at a time: the scrypt thread hashes one at a time anyway, and a right PIN hashes no one after its owner.
    for (const [index, candidate] of ordered.entries()) {
      if (await pinMatches(pin, candidate.pin_hash)) {
        this.#learn(pin, candidate.id, false);
        return { found: candidate, rest: ordered.slice(index + 1) };
      }
    }
    return null;
  }

  /** Every one of `candidates` whose hash the PIN matches: each hash is checked, none skipped. */
  async matching<T extends Hashed>(pin: string, candidates: readonly T[]): Promise<T[]> {
    const matches: T[] = [];
    for (const candidate of candidates) if (await pinMatches(pin, candidate.pin_hash)) matches.push(candidate);
    return matches;
  }

  /**
   * After `found` was found with `pin`: checks `rest` (the active members not hashed yet). None
   * matching, the learned PIN is known to be `found`'s alone (unless the staff changed meanwhile:
   * `generation`); else the PIN is remembered as shared. Answers the others whose PIN it is too.
   */
  async confirmAlone<T extends Hashed>(pin: string, found: T, rest: readonly T[], generation: number): Promise<T[]> {
    const others = await this.matching(pin, rest);
    if (others.length > 0) this.markShared(pin, [found, ...others]);
    else if (generation === this.#generation && this.#known.get(this.#digest(pin))?.id === found.id) this.#learn(pin, found.id, true);
    return others;
  }

  /** Learns a PIN found as one person's by `matching` (an approval); `checkedAll`: against every active member's hash. */
  learn(pin: string, id: string, checkedAll: boolean): void {
    this.#learn(pin, id, checkedAll);
  }

  #sharedDigest(pin: string): string {
    return createHmac('sha256', this.#sharedKey).update(pin).digest('base64');
  }

  /** Remembers `pin` as the PIN of each of `members` (two or more): it names none of them any more. */
  markShared(pin: string, members: readonly Hashed[]): void {
    this.#shared.set(this.#sharedDigest(pin), new Map(members.map((m) => [m.id, m.pin_hash])));
    this.#known.delete(this.#digest(pin));
  }

  /**
   * The ids of the active members `pin` is known to be shared by (two or more), else null. A
   * member given a new PIN since (another hash) no longer shares it; once fewer than two keep the
   * hash they had, the PIN is forgotten as shared. `staff`: every member, active or not (read only
   * when some PIN is known to be shared).
   */
  sharedBy(pin: string, staff: () => readonly (Hashed & { active: boolean })[]): string[] | null {
    if (this.#shared.size === 0) return null;
    const digest = this.#sharedDigest(pin);
    const sharers = this.#shared.get(digest);
    if (!sharers) return null;
    const holding = staff().filter((m) => sharers.get(m.id) === m.pin_hash);
    if (holding.length < 2) {
      this.#shared.delete(digest);
      return null;
    }
    const active = holding.filter((m) => m.active);
    return active.length >= 2 ? active.map((m) => m.id) : null;
  }
}
