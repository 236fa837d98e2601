// The renderer suites' set-up: a real core (SQLite file) behind the page's own BridgeClient,
// through the core's invoke/subscribe, shut down after each test.
import { cleanup, render } from '@testing-library/react';
import type { ReactNode } from 'react';
import { afterEach } from 'vitest';
import { createBridgeClient, type BridgeClient } from '../../renderer/lib/bridge-client';
import { BridgeContext } from '../../renderer/lib/hooks';
import { startTestCore, type TestCore } from '../core/fixtures';

type StartArgs = Parameters<typeof startTestCore>;

/**
 * Registers the teardown; `start()` gives the client of a fresh core (configured, seeded and signed
 * in as startTestCore takes: the owner unless `options.signIn` says otherwise), `core()` that core.
 */
export function coreForEachTest(): { start: (config?: StartArgs[0], seed?: StartArgs[2], options?: StartArgs[3]) => Promise<BridgeClient>; core: () => TestCore } {
  let current: TestCore | undefined;
  afterEach(async () => {
    cleanup();
    await current?.core.shutdown();
    current = undefined;
  });
  return {
    async start(config, seed, options) {
      const t = await startTestCore(config, {}, seed, options);
      current = t;
      return createBridgeClient({ invoke: (request) => t.core.invoke(request), onEvent: (listener) => t.core.subscribe(listener) });
    },
    core: () => {
      if (!current) throw new Error('no core started in this test');
      return current;
    },
  };
}

export function renderWith(client: BridgeClient, ui: ReactNode) {
  return render(<BridgeContext.Provider value={client}>{ui}</BridgeContext.Provider>);
}
