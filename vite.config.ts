// The renderer bundle: plain files under dist/renderer, loaded with a strict CSP (no inline
// script, no eval). oxc compiles JSX, so no React plugin is needed.
import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vite';

const root = fileURLToPath(new URL('./renderer', import.meta.url));

export default defineConfig({
  root,
  base: './',
  logLevel: 'warn',
  oxc: { jsx: { runtime: 'automatic', development: false } },
  // A production bundle whatever NODE_ENV says (with `development: false` above): tests run with
  // NODE_ENV=test, and a bundle they built, which `npm start` and the benches then reuse, carried
  // React's development build and JSX runtime: 1.65× the size, StrictMode's doubled effects and
  // bridge calls, and a cold start 0.3–0.5 s slower.
  define: { 'process.env.NODE_ENV': JSON.stringify('production') },
  build: {
    outDir: fileURLToPath(new URL('./dist/renderer', import.meta.url)),
    emptyOutDir: true,
    target: 'chrome120',
    // The polyfill would be fine, but nothing here needs it and it is one less script.
    modulePreload: { polyfill: false },
    assetsInlineLimit: 0,
    sourcemap: false,
  },
});
