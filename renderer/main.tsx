import './zod-jitless';
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { App } from './App';
import { connectBridge } from './lib/bridge-client';
import { BridgeContext } from './lib/hooks';
import './styles.css';

const root = createRoot(document.getElementById('root') as HTMLElement);
const client = connectBridge();
root.render(
  <StrictMode>
    {client ? (
      <BridgeContext.Provider value={client}>
        <App />
      </BridgeContext.Provider>
    ) : (
      <main className="launch-missing">
        <h1>Open the terminal from its launch link</h1>
        <p>This page needs the link printed when the terminal started (it ends in #launch=…). Copy it from the terminal window and open it here.</p>
      </main>
    )}
  </StrictMode>,
);
