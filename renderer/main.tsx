import './zod-jitless';
import { StrictMode, useEffect, useState } from 'react';
import { createRoot } from 'react-dom/client';
import type { KitchenSetup } from '../bridge/kitchen/contract';
import { App } from './App';
import { KitchenApp } from './kitchen/KitchenApp';
import { connectBridge, type BridgeClient } from './lib/bridge-client';
import { BridgeContext } from './lib/hooks';
import './styles.css';

/** The app of this device's role, as the core reports it: a register's, or a kitchen display's. */
function RoleApp({ client }: { client: BridgeClient }) {
  const [setup, setSetup] = useState<KitchenSetup | null>(null);
  useEffect(() => {
    let live = true;
    const ask = (): void => {
      client.call('kitchen.display', {}).then(
        (answer) => live && setSetup(answer),
        // The core may still be starting: ask again shortly.
        () => live && setTimeout(ask, 500),
      );
    };
    ask();
    return () => {
      live = false;
    };
  }, [client]);
  if (setup === null) return null;
  return setup.role === 'kitchen' ? <KitchenApp setup={setup} /> : <App />;
}

const root = createRoot(document.getElementById('root') as HTMLElement);
const client = connectBridge();
root.render(
  <StrictMode>
    {client ? (
      <BridgeContext.Provider value={client}>
        <RoleApp client={client} />
      </BridgeContext.Provider>
    ) : (
      <main className="launch-missing">
        <h1>Open the terminal from its launch link</h1>
        <p>This page needs the link printed when the terminal started (it ends in #launch=…). Copy it from the terminal window and open it here.</p>
      </main>
    )}
  </StrictMode>,
);
