// Entry of the Electron main process (bundled to dist/main/electron.js, package.json "main").
import { startCore } from '../core';
import { startElectronShell } from './shell';

startElectronShell(startCore);
