// @peculiar/x509 (pure-JS certificate minting; node:crypto cannot create certificates) resolves its
// algorithms through tsyringe, which needs the Reflect metadata polyfill loaded first. Every module of
// store mode imports the library through this file, so the order cannot be got wrong; it also uses
// Node's own WebCrypto (globalThis.crypto), so no second crypto implementation is shipped.
import 'reflect-metadata';
import { cryptoProvider } from '@peculiar/x509';

cryptoProvider.set(globalThis.crypto);

export * from '@peculiar/x509';
