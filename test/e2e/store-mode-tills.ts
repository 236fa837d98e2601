// The set-up the store-mode browser cases share: "Bar", a real core in this process with its own
// SQLite file, in the store; the browser till "Front" (a terminal in browser mode) pulling Bar's log
// over mutual TLS on 127.0.0.1; one Chromium. Each file says only how its two tills differ.
import { mkdirSync } from 'node:fs';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll } from 'vitest';
import type { TerminalConfig, TerminalConfigInput } from '../../main/config/schema';
import type { CoreDeps } from '../../main/core/index';
import { startTestCore, type TestCore } from '../core/fixtures';
import { freePort } from '../store-mode/fixtures/ports';
import { launchChromium, startTerminal, type Terminal } from './harness';
import { SCREENSHOTS } from './shots';

export const STORE_SECRET = Buffer.alloc(32, 0x5c).toString('base64');

export interface StoreModeTills {
  browser: Browser;
  /** Bar, until `stopBar()`. */
  bar: TestCore;
  terminal: Terminal;
  barPort: number;
  frontPort: number;
  /** Bar stops in the middle of a case (its hardware gone): not stopped again after the file. */
  stopBar(): Promise<void>;
}

export interface StoreModeTillsOptions {
  /** A till's port: `freePortPair` where the port after it is the till's pairing listener. */
  port?: () => Promise<number>;
  /** Bar pulls Front's log too (false: Bar only serves its own). */
  barPullsFront?: boolean;
  /** Front's store secret: in its config, or named in its secret store with nothing in it yet (a till to pair). */
  frontSecret?: 'config' | 'to-pair';
  /** Store mode's waits, shortened on Front. */
  storeModeTiming?: CoreDeps['storeModeTiming'];
}

/** Registers the file's beforeAll and afterAll; the tills, once beforeAll has run. */
export function storeModeTills({ port = freePort, barPullsFront = true, frontSecret = 'config', storeModeTiming }: StoreModeTillsOptions = {}): () => StoreModeTills {
  let tills: StoreModeTills | undefined;
  // Each part as it starts, so that a set-up failing halfway still stops what it started.
  let bar: TestCore | undefined;
  let browser: Browser | undefined;
  let terminal: Terminal | undefined;
  beforeAll(async () => {
    mkdirSync(SCREENSHOTS, { recursive: true });
    const barPort = await port();
    const frontPort = await port();
    const started = await startTestCore({
      checkout: { tillLetter: 'B' },
      storeMode: { mode: 'on', listen: `127.0.0.1:${barPort}`, ...(barPullsFront ? { peers: `127.0.0.1:${frontPort}` } : {}), tillName: 'Bar', secret: STORE_SECRET },
    });
    bar = started;
    browser = await launchChromium();
    const secret = frontSecret === 'config' ? { secret: STORE_SECRET } : { secretRef: 'storeMode.storeSecret' };
    terminal = await startTerminal({
      // startTerminal parses the config it is given: the store-mode part as a config file would say it.
      config: { storeMode: { mode: 'on', listen: `127.0.0.1:${frontPort}`, peers: `127.0.0.1:${barPort}`, tillName: 'Front', ...secret } satisfies TerminalConfigInput['storeMode'] } as unknown as Partial<TerminalConfig>,
      ...(storeModeTiming ? { storeModeTiming } : {}),
    });
    tills = {
      browser,
      bar: started,
      terminal,
      barPort,
      frontPort,
      async stopBar() {
        bar = undefined;
        await started.core.shutdown();
      },
    };
  });
  afterAll(async () => {
    await browser?.close();
    await terminal?.close();
    await bar?.core.shutdown();
  });
  return () => {
    if (!tills) throw new Error('the store-mode tills start in beforeAll');
    return tills;
  };
}
