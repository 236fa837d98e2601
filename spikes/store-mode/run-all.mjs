// Runs every measurement of the spike, each candidate as two separate Node processes on 127.0.0.1, and the
// raw baselines in the same run. Writes results/results.json and prints a table. Every child has a hard
// deadline (lib.mjs childGuard) and is stopped here; nothing is left running.
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import tls from 'node:tls';
import { makeCerts, tlsFiles } from './certs.mjs';
import { CATCHUP_ENTRIES, du, ENTRY_BYTES, LIVE_ENTRIES, mb, sleep, spawnRole } from './lib.mjs';

const here = import.meta.dirname;
const data = join(here, 'data');
rmSync(data, { recursive: true, force: true });
mkdirSync(data, { recursive: true });
mkdirSync(join(here, 'results'), { recursive: true });
const certDir = join(data, 'certs');
makeCerts(certDir, ['till-a', 'till-b', 'till-x']);
makeCerts(join(data, 'rogue'), ['till-b'], 'rogue-ca');
const results = { machine: { node: process.version, cpus: (await import('node:os')).cpus().length }, entryBytes: ENTRY_BYTES, catchupEntries: CATCHUP_ENTRIES, liveEntries: LIVE_ENTRIES };
const log = (...a) => console.log('[spike]', ...a);

// 1. Raw baselines
{
  log('baseline: raw TCP rtt, one-way at 10/s, bulk TCP and mTLS');
  const a = spawnRole(join(here, 'baseline.mjs'), ['server', certDir]);
  const ports = await a.next('ready');
  const b = spawnRole(join(here, 'baseline.mjs'), ['client', certDir]);
  b.send({ ...ports, type: 'go' });
  const r = await b.next('result');
  delete r.type;
  results.baseline = r;
  await Promise.all([a.stop(), b.stop()]);
}

// 2. Candidates
async function liveRun(script, name, extra) {
  const a = spawnRole(join(here, script), [script === 'hyper.mjs' ? 'writer' : 'owner', join(data, `${name}-live-A`), ...extra]);
  const ready = await a.next('ready');
  const b = spawnRole(join(here, script), [script === 'hyper.mjs' ? 'reader' : 'peer', join(data, `${name}-live-B`), ...extra]);
  b.send({ ...ready, type: 'go', mode: 'live' });
  await sleep(1000); // B connected and waiting
  a.send({ type: 'live' });
  const lived = await a.next('lived');
  const r = await b.next('result');
  a.send({ type: 'stats' });
  const stats = await a.next('stats');
  await Promise.all([a.stop(), b.stop()]);
  return { appendOnA: lived.commit, visibleOnB: r.latency, rssB_MB: r.rssMB, rssA_MB: stats.rssMB };
}
async function catchupRun(script, name, extra) {
  const a = spawnRole(join(here, script), [script === 'hyper.mjs' ? 'writer' : 'owner', join(data, `${name}-cu-A`), ...extra]);
  const ready = await a.next('ready');
  const t0 = Date.now();
  a.send({ type: 'fill', n: CATCHUP_ENTRIES });
  await a.next('filled', 300_000);
  const fillMs = Date.now() - t0;
  a.send({ type: 'stats' });
  const stats = await a.next('stats');
  const out = { fillOnA_ms: fillMs, ownerDiskMB: stats.dbMB, ownerBesideSqliteMB: stats.besideSqliteMB, ownerLogTableMB: stats.logTableMB ?? null };
  for (const mode of ['catchup-raw', 'catchup']) {
    const b = spawnRole(join(here, script), [script === 'hyper.mjs' ? 'reader' : 'peer', join(data, `${name}-${mode}-B`), ...extra]);
    b.send({ ...ready, type: 'go', mode, total: CATCHUP_ENTRIES });
    const r = await b.next('result', 300_000);
    delete r.type;
    out[mode === 'catchup' ? 'receiveAndApply' : 'receiveOnly'] = r;
    await b.stop();
  }
  if (name === 'httpfeed') out.refusals = await refusals(ready.port);
  a.send({ type: 'stats' });
  out.ownerRefusedCounters = (await a.next('stats')).refused ?? null;
  await a.stop();
  return out;
}

// The HTTPS feed's door: no client certificate, a certificate of another CA, a store certificate of a till
// the store does not list. Each must be refused.
async function refusals(port) {
  const attempt = (opts) => new Promise((resolve) => {
    const s = tls.connect({ port, host: '127.0.0.1', servername: 'till-a', minVersion: 'TLSv1.3', ca: tlsFiles(certDir, 'till-b').ca, ...opts }, () => {
      s.write('GET /feed?after=0&limit=1 HTTP/1.1\r\nHost: till-a\r\nConnection: close\r\n\r\n');
    });
    let got = '';
    s.on('data', (d) => { got += d; });
    s.on('error', (e) => resolve(`refused: ${e.code ?? e.message}`));
    s.on('close', () => resolve(got ? `answered: ${got.split('\r\n')[0]}` : 'refused: closed with no answer'));
    s.setTimeout(3000, () => { s.destroy(); resolve('refused: timeout'); });
  });
  const rogue = tlsFiles(join(data, 'rogue'), 'till-b', 'rogue-ca');
  const x = tlsFiles(certDir, 'till-x');
  return {
    noClientCert: await attempt({}),
    otherCaCert: await attempt({ cert: rogue.cert, key: rogue.key }),
    unlistedTill: await attempt({ cert: x.cert, key: x.key }),
  };
}

const candidates = [
  { name: 'httpfeed', script: 'httpfeed.mjs', extra: [certDir] },
  { name: 'hypercore', script: 'hyper.mjs', extra: [] },
];
results.candidates = {};
for (const c of candidates) {
  try {
    log(`${c.name}: live (${LIVE_ENTRIES} appends at 10/s)`);
    const live = await liveRun(c.script, c.name, c.extra);
    log(`${c.name}: catch-up of ${CATCHUP_ENTRIES}`);
    const catchup = await catchupRun(c.script, c.name, c.extra);
    results.candidates[c.name] = { live, catchup };
  } catch (e) {
    results.candidates[c.name] = { error: String(e?.stack ?? e) };
    log(`${c.name} failed:`, e);
  }
}

// 3. cr-sqlite: does it load into the app's better-sqlite3?
{
  const require = createRequire(import.meta.url);
  let crsqlite;
  try {
    const { extensionPath } = await import('@vlcn.io/crsqlite');
    const Database = require('better-sqlite3');
    const db = new Database(':memory:');
    db.loadExtension(extensionPath);
    crsqlite = { loaded: true, version: db.prepare('SELECT crsql_sha()').pluck().get() };
    db.close();
  } catch (e) {
    crsqlite = { loaded: false, error: String(e?.message ?? e).split('\n')[0] };
  }
  const installLog = join(here, 'install-crsqlite.txt');
  if (existsSync(installLog)) crsqlite.npmInstall = readFileSync(installLog, 'utf8').split('\n').filter((l) => /Look for|Error:|ENOTFOUND|npm error (code|command)/.test(l)).slice(0, 6);
  results.candidates.crsqlite = crsqlite;
}

// 4. What each candidate installs
{
  const nm = join(here, 'node_modules');
  const natives = [];
  const walk = (d) => { for (const e of readdirSync(d, { withFileTypes: true })) { const p = join(d, e.name); if (e.isDirectory()) walk(p); else if (e.name.endsWith('.node')) natives.push(p.slice(nm.length + 1)); } };
  if (existsSync(nm)) walk(nm);
  const packages = existsSync(nm) ? readdirSync(nm).flatMap((n) => (n.startsWith('@') ? readdirSync(join(nm, n)).map((s) => `${n}/${s}`) : [n])).filter((n) => !n.startsWith('.')) : [];
  results.install = {
    hypercore: {
      packages: packages.length,
      nodeModulesMB: mb(du(nm)),
      nativeAddons: [...new Set(natives.map((p) => p.split('/prebuilds/')[0]))],
      linuxX64NodeFiles: natives.filter((p) => p.includes('linux-x64')).length,
      allPlatformNodeFiles: natives.length,
      biggest: packages.map((p) => ({ p, mb: mb(du(join(nm, p))) })).sort((x, y) => y.mb - x.mb).slice(0, 3),
    },
    httpfeed: { packages: 0, note: 'node:https + the app\'s undici and better-sqlite3; certificates by openssl here (see certs.mjs)' },
  };
}

const stamp = new Date().toISOString().replace(/[:.]/g, '-');
results.loadAverage = (await import('node:os')).loadavg();
writeFileSync(join(here, 'results', 'results.json'), JSON.stringify(results, null, 2));
writeFileSync(join(here, 'results', `run-${stamp}.json`), JSON.stringify(results, null, 2));
console.log(JSON.stringify(results, null, 2));
log('done: results/results.json');
