// One terminal in browser mode against its own sandbox, and one Chromium for every case.
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { chromium, type Browser, type Locator, type Page } from 'playwright-core';
import type { CommandInput, CommandName, CommandResult } from '../../bridge/contract';
import { silentLogger } from '../../common/log';
import { TerminalConfig } from '../../main/config/schema';
import { startBrowserMode, type BrowserMode } from '../../main/host/browser-mode';
import type { CoreDeps } from '../../main/core/index';
import { startSandbox, type Sandbox, type SandboxOptions } from '../../sandbox/index';
import { createSyncEngine } from '../../sync/engine';
import { FileSecretStore } from '../../sync/secret-store';
import { STAFF, testStaffConfig, type StaffKey } from '../core/fixtures';

export const CHROMIUM_ARGS = ['--headless', '--no-sandbox', '--disable-gpu', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'];

export function launchChromium(): Promise<Browser> {
  return chromium.launch({ executablePath: '/usr/bin/chromium', args: CHROMIUM_ARGS });
}

export interface Terminal {
  sandbox: Sandbox;
  mode: BrowserMode;
  dataDir: string;
  close(): Promise<void>;
}

/**
 * Quick pushes and a quick return after an outage, so those cases take seconds. Pulls keep their
 * minute: the dead-letter case relies on the terminal not having pulled a server-side deletion.
 */
const FAST_PUSH = { timers: { pushIntervalMs: 300, localWriteDelayMs: 10 }, tuning: { offlineBackoff: { baseMs: 200, capMs: 800 } } };

/**
 * The config's `staff`: the test staff (test/core/fixtures.ts, STAFF) provisioned, unless the test
 * gives its own members (`staff: { members: [] }` for a first run with no staff at all).
 */
function withTestStaff(config: Partial<TerminalConfig>): Partial<TerminalConfig> {
  if (config.staff?.members !== undefined) return config;
  return { ...config, staff: { ...config.staff, members: testStaffConfig().members } as TerminalConfig['staff'] };
}

/**
 * A terminal in browser mode against a fresh sandbox (demo seed), with the test staff provisioned
 * (the owner, a manager and two cashiers of STAFF) unless `config.staff.members` says otherwise.
 */
export async function startTerminal(
  options: {
    config?: Partial<TerminalConfig>;
    apiKey?: (sandbox: Sandbox) => string | null;
    sandbox?: SandboxOptions;
    prepareSandbox?: (sandbox: Sandbox) => Promise<void>;
    /** Store mode's waits, shortened (CoreDeps.storeModeTiming). */
    storeModeTiming?: CoreDeps['storeModeTiming'];
  } = {},
): Promise<Terminal> {
  const sandbox = await startSandbox({ seed: 'demo', ...options.sandbox });
  await options.prepareSandbox?.(sandbox);
  const dataDir = mkdtempSync(join(tmpdir(), 'pos-e2e-'));
  const secretStore = new FileSecretStore(join(dataDir, 'secrets.json'));
  const apiKey = options.apiKey ? options.apiKey(sandbox) : sandbox.credentials.apiKeys.full;
  await secretStore.setMany({ api_key: apiKey, oauth_client_secret: sandbox.credentials.oauthClient.clientSecret });
  const config = TerminalConfig.parse({
    dataDir,
    api: { baseUrl: sandbox.baseUrl, apiHost: sandbox.apiHost, authUrl: sandbox.authUrl },
    credentials: { method: 'api_key', oauthClientId: sandbox.credentials.oauthClient.clientId },
    locationId: sandbox.credentials.locationIds[0],
    ...withTestStaff(options.config ?? {}),
  });
  const mode = await startBrowserMode({
    config,
    logger: silentLogger,
    secretStore,
    coreDeps: {
      createEngine: (engineOptions) => createSyncEngine({ ...engineOptions, ...FAST_PUSH, tuning: { ...engineOptions.tuning, ...FAST_PUSH.tuning } }),
      ...(options.storeModeTiming ? { storeModeTiming: options.storeModeTiming } : {}),
    },
  });
  return {
    sandbox,
    mode,
    dataDir,
    async close() {
      await mode.close();
      await sandbox.close();
    },
  };
}

/** What the page shows once it has started: the lock screen, the owner's set-up, or the till. */
export type TillFace = 'lock' | 'setup' | 'till';

/** Waits until the page shows the lock screen, the first run's set-up, or the till (someone signed in). */
export async function tillFace(page: Page): Promise<TillFace> {
  const lock = page.getByRole('form', { name: 'Sign in' });
  const setup = page.getByRole('form', { name: 'Set up the owner' });
  const till = page.getByTestId('staff-bar');
  await lock.or(setup).or(till).first().waitFor();
  if (await till.isVisible()) return 'till';
  return (await setup.isVisible()) ? 'setup' : 'lock';
}

/** Locks the till with the staff bar's button and waits for the lock screen. */
export async function lockTill(page: Page): Promise<void> {
  await page.getByTestId('staff-bar').getByRole('button', { name: /^Lock \/ Switch staff/ }).click();
  await page.getByRole('form', { name: 'Sign in' }).waitFor();
}

/**
 * Signs `who` in on the lock screen by typing their PIN and Enter (or, `touch`, by tapping the
 * keypad and Sign in), and waits for the staff bar to name them.
 */
export async function signInOnLockScreen(page: Page, who: StaffKey | { name: string; pin: string }, { touch = false }: { touch?: boolean } = {}): Promise<void> {
  const member = typeof who === 'string' ? STAFF[who] : who;
  const form = page.getByRole('form', { name: 'Sign in' });
  await form.waitFor();
  if (touch) {
    const keypad = form.getByRole('group', { name: 'Keypad' });
    for (const digit of member.pin) await keypad.getByRole('button', { name: digit, exact: true }).tap();
    await form.getByRole('button', { name: /^Sign in/ }).tap();
  } else {
    await page.keyboard.type(member.pin);
    await page.keyboard.press('Enter');
  }
  await page.getByTestId('staff-bar').locator('.staff-name').filter({ hasText: new RegExp(`^${member.name}$`) }).waitFor();
}

/**
 * `who` signed in on this page through the lock screen: whoever else is signed in (the session is
 * the terminal's, shared by its pages) is locked out first; null leaves the page on the lock screen.
 */
export async function signInAs(page: Page, who: StaffKey | null): Promise<void> {
  const face = await tillFace(page);
  if (face === 'setup') throw new Error('the terminal has no owner yet: set one up (or provision the test staff)');
  if (face === 'till') {
    const name = await page.getByTestId('staff-bar').locator('.staff-name').textContent();
    if (who !== null && name === STAFF[who].name) return;
    await lockTill(page);
  }
  if (who !== null) await signInOnLockScreen(page, who);
}

/** Goes to a screen by its tab ("Register", "Shift", …): a click, or with `keyboard` the Alt+n the tab shows. */
export async function goToScreen(page: Page, name: string, { keyboard = false }: { keyboard?: boolean } = {}): Promise<void> {
  const tab = page.getByRole('navigation', { name: 'Screens' }).getByRole('button', { name: new RegExp(`^${name}\\b`) });
  if (keyboard) await page.keyboard.press((await tab.locator('kbd').textContent()) ?? '');
  else await tab.click();
  await tab.and(page.locator('[aria-current="page"]')).waitFor();
}

/**
 * Opens the drawer of whoever is signed in on the Shift screen with no float (cash takes an open
 * shift), unless one is open already; the page is left on the Shift screen. By keyboard alone
 * (the tab's Alt+n, then Enter on the button), so a case that proves the till works without a
 * pointer is not helped by one.
 */
export async function openShiftOnScreen(page: Page): Promise<void> {
  await goToScreen(page, 'Shift', { keyboard: true });
  const openForm = page.getByRole('form', { name: 'Open the drawer' });
  const open = page.getByRole('region', { name: 'Open shift' });
  await openForm.or(open).first().waitFor();
  if (await openForm.isVisible()) {
    await openForm.getByRole('button', { name: 'Open with no float' }).press('Enter');
    await open.waitFor();
  }
}

export interface OpenRegisterOptions {
  viewport?: { width: number; height: number };
  hasTouch?: boolean;
  /** Where console errors go (a list several pages share). */
  errors?: string[];
  /** Who signs in on the lock screen (STAFF's key; the owner by default); null stays on the lock screen. */
  signIn?: StaffKey | null;
  /**
   * Whether the drawer of whoever signs in gets an open shift (no float), on the Shift screen, so
   * cash can be taken; default yes. Nothing is opened when a shift is open already.
   */
  openShift?: boolean;
}

/**
 * The register page, with every console error and uncaught exception it produces from its first
 * load (CSP violations land here), in `errors` when given (a list several pages share). `signIn`
 * (the owner by default) signs in through the lock screen by typing the PIN; with `openShift` (the
 * default) the drawer has an open shift. With `signIn: null` the page is left where it started (the
 * lock screen, or the owner's set-up on a terminal with no staff).
 */
export async function openRegister(
  browser: Browser,
  terminal: Terminal,
  { viewport = { width: 1366, height: 850 }, hasTouch, errors = [], signIn = 'owner', openShift = true }: OpenRegisterOptions = {},
): Promise<{ page: Page; errors: string[] }> {
  // A context of its own: axe needs one, and the OAuth consent tab opens in it.
  const context = await browser.newContext(hasTouch === undefined ? { viewport } : { viewport, hasTouch });
  const page = await context.newPage();
  page.on('console', (message) => {
    if (message.type() === 'error') errors.push(message.text());
  });
  page.on('pageerror', (error) => errors.push(error.message));
  await page.goto(terminal.mode.host.launchUrl);
  if (signIn === null) {
    // Someone signed in on another page of this terminal is signed out here too: the session is the terminal's.
    if ((await tillFace(page)) === 'till') await lockTill(page);
    return { page, errors };
  }
  await signInAs(page, signIn);
  if (openShift) {
    await openShiftOnScreen(page);
    await goToScreen(page, 'Register', { keyboard: true });
  }
  await page.locator('.menu-grid .tile').first().waitFor();
  return { page, errors };
}

/** A core command as the signed-in staff member, its value or an Error naming the command. */
export async function callCore<C extends CommandName>(terminal: Terminal, command: C, payload: CommandInput<C>): Promise<CommandResult<C>> {
  const response = await terminal.mode.core.invoke({ command, payload });
  if (!response.ok) throw new Error(`${command}: ${response.error.message}`);
  return response.value as CommandResult<C>;
}

const escapeRegExp = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/**
 * Waits until `locator` is on the page reading `text` (a string: exactly that; a RegExp: matching
 * its textContent), for a notice that appears or a figure that changes. Playwright's own wait:
 * `expect.poll(() => locator.textContent())` would wait 30 s inside one poll for an absent element
 * and then give up after the poll's one second on a slow machine. The error says what it read.
 */
export async function waitForText(locator: Locator, text: string | RegExp, { timeout }: { timeout?: number } = {}): Promise<void> {
  const pattern = typeof text === 'string' ? new RegExp(`^${escapeRegExp(text)}$`) : text;
  try {
    await locator.filter({ hasText: pattern }).first().waitFor({ state: 'attached', ...(timeout === undefined ? {} : { timeout }) });
  } catch (error) {
    const read = await locator.allTextContents().catch(() => []);
    throw new Error(`${String(locator)} never read ${String(pattern)}: it reads ${read.length === 0 ? 'nothing (not on the page)' : JSON.stringify(read)}`, { cause: error });
  }
}

/** Waits until `locator` matches exactly `count` elements (none: every one gone). */
export async function waitForCount(locator: Locator, count: number, { timeout }: { timeout?: number } = {}): Promise<void> {
  const options = timeout === undefined ? {} : { timeout };
  if (count === 0) await locator.first().waitFor({ state: 'detached', ...options });
  else {
    await locator.nth(count - 1).waitFor({ state: 'attached', ...options });
    await locator.nth(count).waitFor({ state: 'detached', ...options });
  }
}
