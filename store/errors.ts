// Every refusal of the store carries a code the caller can branch on and a message a person can act on.

export type StoreErrorCode =
  | 'newer_database' // written by a newer app version: refuse rather than corrupt it
  | 'corrupt_database' // not a SQLite file, truncated, or failing integrity checks: never overwritten
  | 'unreadable_database' // cannot be opened at all (a directory, no permission, missing folder)
  | 'durability_not_guaranteed' // a pragma did not take (e.g. WAL refused on this file system)
  | 'invalid_migrations' // the migration list given to the runner is not 1..n
  | 'not_found'
  | 'conflict' // the entity's state forbids the change (e.g. editing a fulfilled order)
  | 'dependency_dead'; // a dead letter cannot be retried before the operation it depends on

export class StoreError extends Error {
  override readonly name = 'StoreError';
  constructor(
    readonly code: StoreErrorCode,
    message: string,
    options?: { cause?: unknown },
  ) {
    super(message, options);
  }
}
