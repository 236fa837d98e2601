// Raw limits measured in the same run as the candidates, between two processes on 127.0.0.1:
//   rtt:      1 KB ping-pong over plain TCP (request/response round trip)
//   oneway:   1 KB messages at 10/s from A to B over plain TCP: one-way latency (stamp on A, read on B)
//   transfer: N x 1 KB from A to B over plain TCP, and over mutual TLS 1.3 (the HTTPS feed's transport)
import net from 'node:net';
import tls from 'node:tls';
import { childGuard, CATCHUP_ENTRIES, ENTRY_BYTES, LIVE_ENTRIES, LIVE_RATE_PER_S, makeEntry, nowNs, onMessage, rssSampler, send, sleep, summarizeMs } from './lib.mjs';
import { tlsFiles } from './certs.mjs';

const [role, certDir] = process.argv.slice(2);
childGuard();

// Frames: 4-byte big-endian length + body.
function frame(buf) { const h = Buffer.alloc(4); h.writeUInt32BE(buf.length); return Buffer.concat([h, buf]); }
function deframer(onFrame) {
  let pending = Buffer.alloc(0);
  return (chunk) => {
    pending = pending.length ? Buffer.concat([pending, chunk]) : chunk;
    while (pending.length >= 4) {
      const n = pending.readUInt32BE(0);
      if (pending.length < 4 + n) break;
      onFrame(pending.subarray(4, 4 + n));
      pending = pending.subarray(4 + n);
    }
  };
}

if (role === 'server') {
  // A: serves an echo (rtt), a paced one-way stream, and a bulk transfer, on plain TCP and on mTLS.
  const entries = Array.from({ length: CATCHUP_ENTRIES }, (_, i) => frame(makeEntry(i)));
  const handle = (sock) => {
    sock.setNoDelay(true);
    sock.once('data', async (cmd) => {
      const c = cmd.toString();
      if (c === 'rtt') sock.on('data', (d) => sock.write(d));
      else if (c === 'bulk') { for (const e of entries) if (!sock.write(e)) await new Promise((r) => sock.once('drain', r)); }
      else if (c === 'oneway') {
        for (let i = 0; i < LIVE_ENTRIES; i++) { sock.write(frame(makeEntry(i))); await sleep(1000 / LIVE_RATE_PER_S); }
      }
    });
  };
  const tcp = net.createServer(handle).listen(0, '127.0.0.1');
  const t = tlsFiles(certDir, 'till-a');
  const secure = tls.createServer({ ...t, requestCert: true, rejectUnauthorized: true, minVersion: 'TLSv1.3' }, handle).listen(0, '127.0.0.1');
  await Promise.all([new Promise((r) => tcp.once('listening', r)), new Promise((r) => secure.once('listening', r))]);
  send({ type: 'ready', tcpPort: tcp.address().port, tlsPort: secure.address().port });
  await onMessage('stop');
  process.exit(0);
} else {
  const { tcpPort, tlsPort } = await onMessage('go');
  const rss = rssSampler();
  const connectTcp = () => new Promise((resolve) => { const s = net.connect(tcpPort, '127.0.0.1', () => { s.setNoDelay(true); resolve(s); }); });
  const t = tlsFiles(certDir, 'till-b');
  const connectTls = () => new Promise((resolve) => { const s = tls.connect({ ...t, port: tlsPort, host: '127.0.0.1', servername: 'till-a', minVersion: 'TLSv1.3' }, () => resolve(s)); });

  // rtt
  const s1 = await connectTcp();
  s1.write('rtt'); await sleep(20);
  const payload = Buffer.alloc(ENTRY_BYTES, 7);
  const rtts = [];
  for (let i = 0; i < 300; i++) {
    const t0 = nowNs();
    await new Promise((resolve) => { let got = 0; const h = (d) => { got += d.length; if (got >= ENTRY_BYTES) { s1.off('data', h); resolve(); } }; s1.on('data', h); s1.write(payload); });
    rtts.push(Number(nowNs() - t0) / 1e6);
  }
  s1.destroy();

  // one-way at 10/s
  const s2 = await connectTcp();
  const oneway = [];
  await new Promise((resolve) => {
    s2.on('data', deframer((b) => { const e = JSON.parse(b); oneway.push(Number(nowNs() - BigInt(e.sentNs)) / 1e6); if (oneway.length === LIVE_ENTRIES) resolve(); }));
    s2.write('oneway');
  });
  s2.destroy();

  // bulk, plain then TLS
  const bulk = async (sock) => {
    const total = CATCHUP_ENTRIES;
    let n = 0;
    const t0 = nowNs();
    await new Promise((resolve) => { sock.on('data', deframer(() => { if (++n === total) resolve(); })); sock.write('bulk'); });
    const ms = Number(nowNs() - t0) / 1e6;
    sock.destroy();
    return { ms: Math.round(ms * 10) / 10, MBps: Math.round(((total * (ENTRY_BYTES + 4)) / 1048576 / (ms / 1000)) * 10) / 10 };
  };
  const tcpBulk = await bulk(await connectTcp());
  const tlsBulk = await bulk(await connectTls());
  send({ type: 'result', rtt: summarizeMs(rtts), oneway: summarizeMs(oneway), tcpBulk, tlsBulk, rssMB: rss.stop() });
  await onMessage('stop');
  process.exit(0);
}
