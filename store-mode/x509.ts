// @peculiar/x509 (pure-JS certificate minting; node:crypto cannot create certificates) resolves its
// algorithms through tsyringe, which needs the Reflect metadata polyfill loaded first. Every module of
// store mode reaches the library through this file, so the order cannot be got wrong; it also uses
// Node's own WebCrypto (globalThis.crypto), so no second crypto implementation is shipped.
// Loaded on first use, not imported: a bundle hoists a package's import to its top, and a till with
// store mode off would carry it (~5 MB, ~200 ms to load) for nothing. A till in store mode loads it only
// to mint its certificates (identity.ts: the first start in a store, or after the secret, the key or the
// name changed); peers' certificates are read with node:crypto. Required, not imported: its callers
// (and the tests' forging fixture) take it synchronously.
import { createRequire } from 'node:module';
import type * as X509 from '@peculiar/x509';

export type * from '@peculiar/x509';

let loaded: typeof X509 | undefined;

export function x509Library(): typeof X509 {
  if (loaded) return loaded;
  const requirePackage = createRequire(import.meta.url);
  requirePackage('reflect-metadata');
  const library = requirePackage('@peculiar/x509') as typeof X509;
  library.cryptoProvider.set(globalThis.crypto);
  loaded = library;
  return library;
}
