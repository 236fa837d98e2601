// Proves every architecture rule in .dependency-cruiser.cjs fires on a forbidden import (and stays
// quiet on allowed ones), by cruising small fixture trees with the real config.
import { afterAll, describe, expect, it } from 'vitest';
import { removeCruisedTrees, violationsFor } from './cruise';

function rulesFired(files: Record<string, string>): string[] {
  return [...new Set(violationsFor(files).map((v) => v.rule.name))].sort();
}

afterAll(removeCruisedTrees);

describe('architecture rules', () => {
  it('allow the intended direction', () => {
    expect(
      rulesFired({
        'common/clock.ts': 'export const c = 1;\n',
        'api/order.ts': "import { c } from '../common/clock';\nexport const o = c;\n",
        'bridge/contract.ts': 'export const b = 1;\n',
        'store/orders.ts': "import { o } from '../api/order';\nexport const s = o;\n",
        'sync/push.ts': "import { s } from '../store/orders';\nimport { o } from '../api/order';\nexport const p = s + o;\n",
        'sandbox/server.ts': "import { o } from '../api/order';\nexport const v = o;\n",
        'main/core/index.ts': "import { p } from '../../sync/push';\nimport { b } from '../../bridge/contract';\nexport const k = p + b;\n",
        'main/host/start.ts': "import { k } from '../core/index';\nimport { v } from '../../sandbox/server';\nexport const h = k + v;\n",
        'main/electron/app.ts': "import { app } from 'electron';\nimport { k } from '../core/index';\nexport const e = [app, k];\n",
        'renderer/app.tsx': "import { b } from '../bridge/contract';\nexport const r = b;\n",
      }),
    ).toEqual([]);
  });

  it('keep the renderer on the bridge contract only', () => {
    expect(
      rulesFired({
        'store/orders.ts': 'export const s = 1;\n',
        'renderer/app.tsx': "import { s } from '../store/orders';\nexport const r = s;\n",
      }),
    ).toEqual(['renderer-only-bridge']);
    expect(
      rulesFired({
        'tool.ts': 'export const x = 1;\n',
        'renderer/app.tsx': "import { x } from '../tool';\nexport const r = x;\n",
      }),
    ).toEqual(['renderer-only-bridge']);
  });

  it('let the renderer import only the allow-listed npm packages', () => {
    expect(
      rulesFired({
        'renderer/main.tsx': [
          "import { StrictMode, type ReactNode } from 'react';",
          "import { createRoot, type Root } from 'react-dom/client';",
          "import { jsx } from 'react/jsx-runtime';",
          "import { z } from 'zod';",
          'export const r = [StrictMode, createRoot, jsx, z];',
          'export type T = ReactNode | Root;',
          'export const A = () => <div />;',
          '',
        ].join('\n'),
      }),
    ).toEqual([]);
    // One cruise for all the forbidden imports: each file's rules, keyed by file.
    const forbidden: Record<string, string> = {
      'renderer/sqlite.ts': "import Database from 'better-sqlite3';\nexport const r = Database;\n",
      'renderer/sqlite-types.ts': "import type { Database } from 'better-sqlite3';\nexport type R = Database;\n",
      'renderer/undici.ts': "import { fetch } from 'undici';\nexport const r = fetch;\n",
      'renderer/lazy-undici.ts': "export const r = () => import('undici');\n",
      // kysely's entry is under its own dist/: the config must not exclude it along with the build output.
      'renderer/kysely.ts': "import { Kysely } from 'kysely';\nexport const r = Kysely;\n",
      // A package's name is matched whole: react-is is not react.
      'renderer/react-is.ts': "import { isElement } from 'react-is';\nexport const r = isElement;\n",
      'renderer/not-installed.ts': "import x from 'not-installed';\nexport const r = x;\n",
      'renderer/electron.ts': "import { ipcRenderer } from 'electron';\nexport const r = ipcRenderer;\n",
    };
    const fired: Record<string, string[]> = Object.fromEntries(Object.keys(forbidden).map((file) => [file, []]));
    for (const v of violationsFor(forbidden)) fired[v.from]?.push(v.rule.name);
    for (const rules of Object.values(fired)) rules.sort();
    expect(fired).toEqual({
      'renderer/sqlite.ts': ['renderer-allowed-packages'],
      'renderer/sqlite-types.ts': ['renderer-allowed-packages'],
      'renderer/undici.ts': ['renderer-allowed-packages'],
      'renderer/lazy-undici.ts': ['renderer-allowed-packages'],
      'renderer/kysely.ts': ['renderer-allowed-packages'],
      'renderer/react-is.ts': ['renderer-allowed-packages'],
      'renderer/not-installed.ts': ['renderer-allowed-packages'],
      'renderer/electron.ts': ['only-shell-imports-electron', 'renderer-allowed-packages'],
    });
  });

  it('keep Node built-ins out of the renderer and the bridge contract', () => {
    expect(rulesFired({ 'renderer/app.tsx': "import { readFileSync } from 'node:fs';\nexport const r = readFileSync;\n" })).toEqual(['renderer-no-node']);
    expect(rulesFired({ 'renderer/app.tsx': "import { readFileSync } from 'fs';\nexport const r = readFileSync;\n" })).toEqual(['renderer-no-node']);
    expect(rulesFired({ 'bridge/contract.ts': "import { createHash } from 'node:crypto';\nexport const b = createHash;\n" })).toEqual(['renderer-no-node']);
  });

  it('let only the Electron shell import electron', () => {
    expect(rulesFired({ 'main/core/index.ts': "import { app } from 'electron';\nexport const k = app;\n" })).toEqual(['only-shell-imports-electron']);
    expect(rulesFired({ 'sync/updater.ts': "import { autoUpdater } from 'electron-updater';\nexport const u = autoUpdater;\n" })).toEqual([
      'only-shell-imports-electron',
    ]);
  });

  it('keep the contracts as leaves', () => {
    expect(
      rulesFired({
        'store/orders.ts': 'export const s = 1;\n',
        'api/order.ts': "import { s } from '../store/orders';\nexport const o = s;\n",
      }),
    ).toEqual(['contracts-are-leaves']);
  });

  it('keep the store below sync and main', () => {
    expect(
      rulesFired({
        'sync/push.ts': 'export const p = 1;\n',
        'store/orders.ts': "import { p } from '../sync/push';\nexport const s = p;\n",
      }),
    ).toEqual(['store-below-sync-and-main']);
  });

  it('keep sync ignorant of main and the renderer', () => {
    expect(
      rulesFired({
        'main/core/index.ts': 'export const k = 1;\n',
        'sync/push.ts': "import { k } from '../main/core/index';\nexport const p = k;\n",
      }),
    ).toEqual(['sync-knows-no-app']);
  });

  it('keep the sandbox apart from the terminal', () => {
    expect(
      rulesFired({
        'store/orders.ts': 'export const s = 1;\n',
        'sandbox/server.ts': "import { s } from '../store/orders';\nexport const v = s;\n",
      }),
    ).toEqual(['sandbox-stands-alone']);
  });

  it('keep the core below its shells', () => {
    expect(
      rulesFired({
        'main/host/start.ts': 'export const h = 1;\n',
        'main/core/index.ts': "import { h } from '../host/start';\nexport const k = h;\n",
      }),
    ).toEqual(['core-below-shells']);
  });

  it('keep the preload tiny', () => {
    expect(
      rulesFired({
        'main/core/index.ts': 'export const k = 1;\n',
        'main/preload/preload.ts': "import { k } from '../core/index';\nexport const pre = k;\n",
      }),
    ).toEqual(['preload-is-tiny']);
  });

  it('keep the tables room a room: it reaches the rest of the core only through its deps, and only the core opens it', () => {
    const room = {
      'main/core/errors.ts': 'export const e = 1;\n',
      'main/core/staff/desk.ts': 'export const d = 1;\n',
      'bridge/tables/contract.ts': 'export const tc = 1;\n',
      'main/core/tables/desk.ts': "import { e } from '../errors';\nimport { d } from '../staff/desk';\nimport { tc } from '../../../bridge/tables/contract';\nexport const t = e + d + tc;\n",
      'main/core/index.ts': "import { t } from './tables/desk';\nexport const k = t;\n",
    };
    expect(rulesFired(room)).toEqual([]);
    expect(
      rulesFired({ ...room, 'main/core/cashier.ts': 'export const c = 1;\n', 'main/core/tables/orders.ts': "import { c } from '../cashier';\nexport const o = c;\n" }),
    ).toEqual(['tables-room-through-its-deps']);
    expect(rulesFired({ ...room, 'printing/jobs.ts': 'export const j = 1;\n', 'main/core/tables/bill.ts': "import { j } from '../../../printing/jobs';\nexport const b = j;\n" })).toEqual([
      'tables-room-through-its-deps',
    ]);
    expect(rulesFired({ ...room, 'main/core/cashier.ts': "import { t } from './tables/desk';\nexport const c = t;\n" })).toEqual(['tables-room-opened-by-the-core']);
    expect(rulesFired({ ...room, 'bridge/money.ts': 'export const m = 1;\n', 'bridge/tables/bill.ts': "import { m } from '../money';\nexport const b = m;\n" })).toEqual([
      'tables-bridge-stands-alone',
    ]);
  });

  it('keep the store-mode room on common/ and npm packages, opened only by main/, its bridge shapes standing alone', () => {
    const room = {
      'common/log.ts': 'export const l = 1;\n',
      'store-mode/feed-server.ts': "import { l } from '../common/log';\nimport { request } from 'undici';\nimport https from 'node:https';\nexport const f = [l, request, https];\n",
      'main/store-mode.ts': "import { f } from '../store-mode/feed-server';\nexport const m = f;\n",
      'main/config/schema.ts': "import { f } from '../../store-mode/feed-server';\nexport const s = f;\n",
    };
    expect(rulesFired(room)).toEqual([]);
    // One cruise for every forbidden import out of the room and into it: each file's rules, keyed by file.
    const forbidden: Record<string, string> = {
      'store/log.ts': 'export const s = 1;\n',
      'sync/engine.ts': 'export const y = 1;\n',
      'bridge/contract.ts': 'export const b = 1;\n',
      'main/core/index.ts': 'export const k = 1;\n',
      'store-mode/uses-store.ts': "import { s } from '../store/log';\nexport const u = s;\n",
      'store-mode/uses-sync.ts': "import { y } from '../sync/engine';\nexport const u = y;\n",
      'store-mode/uses-bridge.ts': "import { b } from '../bridge/contract';\nexport const u = b;\n",
      'store-mode/uses-core.ts': "import { k } from '../main/core/index';\nexport const u = k;\n",
      'store-mode/peer.ts': 'export const p = 1;\n',
      'sync/uses-room.ts': "import { p } from '../store-mode/peer';\nexport const u = p;\n",
      'store/uses-room.ts': "import { p } from '../store-mode/peer';\nexport const u = p;\n",
      'sandbox/uses-room.ts': "import { p } from '../store-mode/peer';\nexport const u = p;\n",
      'bridge/money.ts': 'export const m = 1;\n',
      'bridge/store-mode/contract.ts': "import { m } from '../money';\nexport const c = m;\n",
    };
    const fired: Record<string, string[]> = {};
    for (const v of violationsFor(forbidden)) (fired[v.from] ??= []).push(v.rule.name);
    for (const rules of Object.values(fired)) rules.sort();
    expect(fired).toEqual({
      'store-mode/uses-store.ts': ['store-mode-on-common'],
      'store-mode/uses-sync.ts': ['store-mode-on-common'],
      'store-mode/uses-bridge.ts': ['store-mode-on-common'],
      'store-mode/uses-core.ts': ['store-mode-on-common'],
      'sync/uses-room.ts': ['store-mode-opened-by-main'],
      'store/uses-room.ts': ['store-mode-opened-by-main'],
      'sandbox/uses-room.ts': ['store-mode-opened-by-main'],
      'bridge/store-mode/contract.ts': ['store-mode-bridge-stands-alone'],
    });
  });

  it('keep the kitchen room a room: its deps and store mode’s forwarding only, opened by the core, its bridge shapes and its screen apart', () => {
    const room = {
      'main/core/errors.ts': 'export const e = 1;\n',
      'main/core/store-mode/forwarding.ts': 'export const f = 1;\n',
      'main/config/schema.ts': 'export const s = 1;\n',
      'printing/routing.ts': 'export const r = 1;\n',
      'bridge/kitchen/contract.ts': 'export const kc = 1;\n',
      'main/core/kitchen/desk.ts':
        "import { e } from '../errors';\nimport { f } from '../store-mode/forwarding';\nimport { s } from '../../config/schema';\nimport { r } from '../../../printing/routing';\nimport { kc } from '../../../bridge/kitchen/contract';\nexport const d = e + f + s + r + kc;\n",
      'main/core/index.ts': "import { d } from './kitchen/desk';\nexport const k = d;\n",
      'renderer/lib/hooks.ts': 'export const h = 1;\n',
      'renderer/kitchen/KitchenApp.tsx': "import { h } from '../lib/hooks';\nimport { kc } from '../../bridge/kitchen/contract';\nexport const a = h + kc;\n",
      'renderer/main.tsx': "import { a } from './kitchen/KitchenApp';\nexport const m = a;\n",
    };
    expect(rulesFired(room)).toEqual([]);
    // One cruise for every forbidden import out of the room and into it: each file's rules, keyed by file.
    const forbidden: Record<string, string> = {
      'main/core/cashier.ts': 'export const c = 1;\n',
      'sync/engine.ts': 'export const y = 1;\n',
      'main/core/kitchen/uses-cashier.ts': "import { c } from '../cashier';\nexport const u = c;\n",
      'main/core/kitchen/uses-sync.ts': "import { y } from '../../../sync/engine';\nexport const u = y;\n",
      'main/core/kitchen/desk.ts': 'export const d = 1;\n',
      'main/core/tables/uses-room.ts': "import { d } from '../kitchen/desk';\nexport const u = d;\n",
      'bridge/money.ts': 'export const m = 1;\n',
      'bridge/kitchen/contract.ts': "import { m } from '../money';\nexport const kc = m;\n",
      'renderer/screens/Register.tsx': 'export const r = 1;\n',
      'renderer/kitchen/uses-register.tsx': "import { r } from '../screens/Register';\nexport const u = r;\n",
      'renderer/kitchen/KitchenApp.tsx': 'export const a = 1;\n',
      'renderer/App.tsx': "import { a } from './kitchen/KitchenApp';\nexport const u = a;\n",
    };
    const fired: Record<string, string[]> = {};
    for (const v of violationsFor(forbidden)) (fired[v.from] ??= []).push(v.rule.name);
    for (const rules of Object.values(fired)) rules.sort();
    expect(fired).toEqual({
      'main/core/kitchen/uses-cashier.ts': ['kitchen-room-through-its-deps'],
      'main/core/kitchen/uses-sync.ts': ['kitchen-room-through-its-deps'],
      'main/core/tables/uses-room.ts': ['kitchen-room-opened-by-the-core', 'tables-room-through-its-deps'],
      'bridge/kitchen/contract.ts': ['kitchen-bridge-stands-alone'],
      'renderer/kitchen/uses-register.tsx': ['kitchen-screen-its-own-app'],
      'renderer/App.tsx': ['kitchen-screen-opened-by-main'],
    });
  });

  it('keep the printing, staff and report rooms\' bridge shapes on the primitives, below the one contract', () => {
    const rooms = {
      'bridge/money.ts': 'export const m = 1;\n',
      'bridge/primitives.ts': "import { m } from './money';\nexport const p = m;\n",
      'bridge/printing/contract.ts': "import { p } from '../primitives';\nexport const pc = p;\n",
      'bridge/staff/cash.ts': "import { m } from '../money';\nexport const c = m;\n",
      'bridge/staff/contract.ts': "import { p } from '../primitives';\nimport { c } from './cash';\nexport const sc = p + c;\n",
      'bridge/reports/contract.ts': "import { p } from '../primitives';\nimport { pc } from '../printing/contract';\nimport { sc } from '../staff/contract';\nexport const rc = p + pc + sc;\n",
      'bridge/contract.ts': "import { p } from './primitives';\nimport { pc } from './printing/contract';\nimport { sc } from './staff/contract';\nimport { rc } from './reports/contract';\nexport const b = p + pc + sc + rc;\n",
    };
    expect(rulesFired(rooms)).toEqual([]);
    // One cruise for every forbidden import: each file's rules, keyed by file.
    const forbidden: Record<string, string> = {
      'bridge/contract.ts': 'export const b = 1;\n',
      'bridge/checkout/tax.ts': 'export const t = 1;\n',
      'bridge/primitives.ts': "import { t } from './checkout/tax';\nexport const p = t;\n",
      'bridge/printing/contract.ts': "import { b } from '../contract';\nexport const pc = b;\n",
      'bridge/printing/uses-staff.ts': "import { r } from '../staff/roles';\nexport const u = r;\n",
      'bridge/staff/roles.ts': 'export const r = 1;\n',
      'bridge/staff/contract.ts': "import { b } from '../contract';\nexport const sc = b;\n",
      'bridge/staff/uses-printing.ts': "import { pc } from '../printing/contract';\nexport const u = pc;\n",
      'bridge/reports/contract.ts': "import { b } from '../contract';\nexport const rc = b;\n",
      'bridge/reports/uses-roles.ts': "import { r } from '../staff/roles';\nexport const u = r;\n",
    };
    const fired: Record<string, string[]> = {};
    for (const v of violationsFor(forbidden)) (fired[v.from] ??= []).push(v.rule.name);
    for (const rules of Object.values(fired)) rules.sort();
    expect(fired).toEqual({
      'bridge/primitives.ts': ['bridge-primitives-a-leaf'],
      'bridge/printing/contract.ts': ['printing-bridge-on-primitives'],
      'bridge/printing/uses-staff.ts': ['printing-bridge-on-primitives'],
      'bridge/staff/contract.ts': ['staff-bridge-on-primitives'],
      'bridge/staff/uses-printing.ts': ['staff-bridge-on-primitives'],
      'bridge/reports/contract.ts': ['reports-bridge-through-its-deps'],
      'bridge/reports/uses-roles.ts': ['reports-bridge-through-its-deps'],
    });
  });

  it('keep tests out of production code', () => {
    expect(
      rulesFired({
        'test/helpers.ts': 'export const t = 1;\n',
        'sync/push.ts': "import { t } from '../test/helpers';\nexport const p = t;\n",
      }),
    ).toEqual(['no-production-import-of-tests']);
  });

  it('forbid import cycles', () => {
    expect(
      rulesFired({
        'sync/a.ts': "import { b } from './b';\nexport const a = () => b;\n",
        'sync/b.ts': "import { a } from './a';\nexport const b = () => a;\n",
      }),
    ).toEqual(['no-circular']);
  });
});
