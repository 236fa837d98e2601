import http from 'node:http';
import net, { type AddressInfo } from 'node:net';
import { Writable } from 'node:stream';
import { afterEach, describe, expect, it } from 'vitest';
import { ManualClock } from '../../common/clock';
import { createLogger, silentLogger, type Logger } from '../../common/log';
import { formatPairingCode, newPairingCode, PairingCodeError, parsePairingCode } from '../../store-mode/pairing/code';
import { confirmation, derivePairingKeys, loadCpace, newSessionId, type PairingTranscript } from '../../store-mode/pairing/cpace';
import { pairWithStore, PairingError, type PairWithStoreOptions } from '../../store-mode/pairing/join';
import { openPairingListener, type PairingListener, type PairingListenerOptions } from '../../store-mode/pairing/listener';

const { pairingGenerator, pairingShare, randomScalar, sharedPoint } = await loadCpace();
const SECRET = new Uint8Array(32).map((_, i) => (i * 37 + 11) & 0xff);
const b64url = (bytes: Uint8Array): string => Buffer.from(bytes).toString('base64url');

const cleanups: Array<() => Promise<void>> = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

async function listen(options: Partial<PairingListenerOptions> & { code: string }): Promise<PairingListener> {
  const listener = await openPairingListener({ host: '127.0.0.1', port: 0, tillName: 'Bar', storeSecret: SECRET, logger: silentLogger, ...options });
  cleanups.push(() => listener.close());
  return listener;
}

function join(listener: PairingListener | { address: { port: number } }, code: string, more: Partial<PairWithStoreOptions> = {}) {
  return pairWithStore({ host: '127.0.0.1', port: listener.address.port, code, tillName: 'Patio', ...more });
}

/** The PairingError a pairing fails with (the test fails if it pairs). */
async function failure(pairing: Promise<unknown>): Promise<PairingError> {
  const error = await pairing.then(
    () => new Error('paired, but was expected to fail'),
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(PairingError);
  return error as PairingError;
}

function otherCode(code: string): string {
  return code === '00000000' ? '00000001' : '00000000';
}

interface RawAnswer {
  status: number;
  text: string;
  headers: http.IncomingHttpHeaders;
}

/** One request on a connection of its own; the answer, or the network error's code. */
function raw(port: number, path: string, body: string | Buffer | null, method = 'POST'): Promise<RawAnswer | string> {
  return new Promise((resolve) => {
    const request = http.request({ host: '127.0.0.1', port, path, method, agent: false, headers: body === null ? {} : { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) } }, (response) => {
      const chunks: Buffer[] = [];
      response.on('data', (chunk: Buffer) => chunks.push(chunk));
      response.on('end', () => resolve({ status: response.statusCode ?? 0, text: Buffer.concat(chunks).toString('utf8'), headers: response.headers }));
      response.on('error', (error: NodeJS.ErrnoException) => resolve(error.code ?? String(error)));
    });
    request.on('error', (error: NodeJS.ErrnoException) => resolve(error.code ?? String(error)));
    request.end(body ?? undefined);
  });
}

async function rawAnswer(port: number, path: string, body: unknown, method = 'POST'): Promise<RawAnswer> {
  const answer = await raw(port, path, typeof body === 'string' || Buffer.isBuffer(body) ? body : JSON.stringify(body), method);
  if (typeof answer === 'string') throw new Error(`expected an answer, got ${answer}`);
  return answer;
}

/** A joiner run by hand: its hello sent, and the confirm it would send next. */
async function handHello(port: number, code: string) {
  const sessionId = newSessionId();
  const ya = randomScalar();
  const joinerShare = pairingShare(ya, pairingGenerator(code, sessionId));
  const answer = await rawAnswer(port, '/pair/hello', { v: 1, sessionId: b64url(sessionId), tillName: 'Patio', share: b64url(joinerShare) });
  expect(answer.status).toBe(200);
  const { tillName, share } = JSON.parse(answer.text) as { tillName: string; share: string };
  const listenerShare = new Uint8Array(Buffer.from(share, 'base64url'));
  const transcript: PairingTranscript = { sessionId, joinerShare, listenerShare, joinerName: 'Patio', listenerName: tillName };
  const keys = derivePairingKeys(sharedPoint(ya, listenerShare), transcript);
  return { confirmBody: { v: 1, sessionId: b64url(sessionId), confirm: b64url(confirmation(keys.joinerConfirm, 'joiner', transcript)) } };
}

interface Exchange {
  path: string;
  request: string;
  status: number;
  answer: string;
}

/** A man in the middle on loopback: records every exchange and may edit a JSON request or answer on its way. */
async function proxy(targetPort: number, edit: { request?: (path: string, body: Record<string, unknown>) => void; answer?: (path: string, body: Record<string, unknown>) => void } = {}) {
  const exchanges: Exchange[] = [];
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const path = req.url ?? '/';
      let request = Buffer.concat(chunks).toString('utf8');
      if (edit.request) {
        const body = JSON.parse(request) as Record<string, unknown>;
        edit.request(path, body);
        request = JSON.stringify(body);
      }
      void raw(targetPort, path, request).then((answer) => {
        if (typeof answer === 'string') return res.destroy();
        let text = answer.text;
        if (edit.answer && answer.status === 200) {
          const body = JSON.parse(text) as Record<string, unknown>;
          edit.answer(path, body);
          text = JSON.stringify(body);
        }
        exchanges.push({ path, request, status: answer.status, answer: text });
        res.writeHead(answer.status, { 'content-type': 'application/json' }).end(text);
      });
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  cleanups.push(
    () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  );
  return { address: { port: (server.address() as AddressInfo).port }, exchanges };
}

/** One bit of a base64url field flipped, still canonical base64url of the same length. */
function flipped(field: unknown): string {
  const bytes = Buffer.from(String(field), 'base64url');
  bytes[Math.floor(bytes.length / 2)] = (bytes[Math.floor(bytes.length / 2)] ?? 0) ^ 0x10;
  return bytes.toString('base64url');
}

function logCapture(): { logger: Logger; lines: () => Array<Record<string, unknown>> } {
  let text = '';
  const destination = new Writable({
    write(chunk: Buffer, _encoding, done) {
      text += chunk.toString();
      done();
    },
  });
  return {
    logger: createLogger({ destination, level: 'debug' }),
    lines: () =>
      text
        .split('\n')
        .filter((line) => line !== '')
        .map((line) => JSON.parse(line) as Record<string, unknown>),
  };
}

describe('the pairing code', () => {
  it('reads 8 digits with or without a space or dash between groups', () => {
    expect(parsePairingCode('1234 5678')).toBe('12345678');
    expect(parsePairingCode('1234-5678')).toBe('12345678');
    expect(parsePairingCode('12345678')).toBe('12345678');
    expect(parsePairingCode(' 0012 3456 ')).toBe('00123456');
    expect(formatPairingCode('00123456')).toBe('0012 3456');
  });

  it('refuses anything else in plain words, and repairs nothing', () => {
    const refusal = (text: string): string => {
      try {
        parsePairingCode(text);
      } catch (error) {
        expect(error).toBeInstanceOf(PairingCodeError);
        return (error as Error).message;
      }
      throw new Error(`${text} was accepted`);
    };
    expect(refusal('1234 567')).toBe('The code has 8 digits, like 1234 5678; this one has 7');
    expect(refusal('1234 56789')).toBe('The code has 8 digits, like 1234 5678; this one has 9');
    expect(refusal('1234 567a')).toMatch(/only digits/);
    expect(refusal('-12345678')).toMatch(/only digits/);
    expect(refusal('1234--5678')).toMatch(/only digits/);
    expect(refusal('')).toMatch(/8 digits/);
  });

  it('makes codes of 8 digits, leading zeros kept', () => {
    for (let i = 0; i < 200; i++) expect(newPairingCode()).toMatch(/^\d{8}$/);
  });
});

describe('pairing a till by a code', () => {
  it('hands the right code the store secret, once: the port then refuses connections', async () => {
    const code = newPairingCode();
    const listener = await listen({ code });
    const joined = await join(listener, formatPairingCode(code));
    expect(Buffer.from(joined.storeSecret).equals(Buffer.from(SECRET))).toBe(true);
    expect(joined.listenerTillName).toBe('Bar');
    await expect(listener.outcome).resolves.toEqual({ kind: 'paired', tillName: 'Patio' });
    expect(listener.counts()).toEqual({ wrongCode: 0, malformed: 0, expiredSession: 0 });
    expect(await raw(listener.address.port, '/pair/hello', '{}')).toBe('ECONNREFUSED');
    expect((await failure(join(listener, code))).reason).toBe('unreachable');
  });

  it('refuses a wrong code and counts it; the right code still pairs after two wrong ones', async () => {
    const code = newPairingCode();
    const listener = await listen({ code });
    for (const attempt of [1, 2]) {
      const error = await failure(join(listener, otherCode(code)));
      expect(error.reason).toBe('wrongCode');
      expect(error.message).toBe("The code was not accepted: check it on Bar's screen and type it again.");
      expect(listener.counts().wrongCode).toBe(attempt);
    }
    const joined = await join(listener, code);
    expect(Buffer.from(joined.storeSecret).equals(Buffer.from(SECRET))).toBe(true);
    await expect(listener.outcome).resolves.toEqual({ kind: 'paired', tillName: 'Patio' });
  });

  it('closes after the third wrong code, and the right code then fails', async () => {
    const code = newPairingCode();
    const listener = await listen({ code });
    for (let attempt = 0; attempt < 3; attempt++) expect((await failure(join(listener, otherCode(code)))).reason).toBe('wrongCode');
    await expect(listener.outcome).resolves.toEqual({ kind: 'tooManyWrongCodes' });
    expect(listener.counts().wrongCode).toBe(3);
    expect(['unreachable', 'closed']).toContain((await failure(join(listener, code))).reason);
  });

  it('gives a replayer of a successful pairing nothing: its confirm is unknown (409) or, after a replayed hello, wrong', async () => {
    const code = newPairingCode();
    const first = await listen({ code });
    const tap = await proxy(first.address.port);
    await join(tap, code);
    await expect(first.outcome).resolves.toMatchObject({ kind: 'paired' });
    const hello = tap.exchanges.find((exchange) => exchange.path === '/pair/hello');
    const confirm = tap.exchanges.find((exchange) => exchange.path === '/pair/confirm');
    if (!hello || !confirm) throw new Error('the tap saw no hello or confirm');
    expect(JSON.parse(confirm.answer)).toHaveProperty('sealed');

    const second = await listen({ code });
    const port = second.address.port;
    const answers: RawAnswer[] = [];
    answers.push(await rawAnswer(port, '/pair/confirm', confirm.request));
    expect(answers[0]).toMatchObject({ status: 409, text: JSON.stringify({ error: 'unknownSession' }) });
    expect(second.counts()).toEqual({ wrongCode: 0, malformed: 0, expiredSession: 1 });
    answers.push(await rawAnswer(port, '/pair/hello', hello.request));
    expect(answers[1]?.status).toBe(200);
    expect((JSON.parse(answers[1]?.text ?? '{}') as { share: string }).share).not.toBe((JSON.parse(hello.answer) as { share: string }).share);
    answers.push(await rawAnswer(port, '/pair/confirm', confirm.request));
    expect(answers[2]).toMatchObject({ status: 403, text: JSON.stringify({ error: 'wrongCode' }) });
    expect(second.counts()).toEqual({ wrongCode: 1, malformed: 0, expiredSession: 1 });
    const everything = answers.map((answer) => answer.text).join('\n');
    expect(everything).not.toMatch(/sealed|nonce|confirm/);
    for (const encoding of ['hex', 'base64', 'base64url'] as const) expect(everything).not.toContain(Buffer.from(SECRET).toString(encoding));
    // The right code still pairs with the second listener: the replay cost one attempt, nothing more.
    await join(second, code);
    await expect(second.outcome).resolves.toMatchObject({ kind: 'paired' });
  });

  it("stops at an altered answer of the listener ('tampered') and refuses an altered confirmation of the joiner (wrongCode)", async () => {
    const cases: Array<[string, Parameters<typeof proxy>[1], PairingError['reason']]> = [
      ['sealed', { answer: (path, body) => path === '/pair/confirm' && (body.sealed = flipped(body.sealed)) }, 'tampered'],
      ['nonce', { answer: (path, body) => path === '/pair/confirm' && (body.nonce = flipped(body.nonce)) }, 'tampered'],
      ['listener confirm', { answer: (path, body) => path === '/pair/confirm' && (body.confirm = flipped(body.confirm)) }, 'tampered'],
      ['listener share: the identity point', { answer: (path, body) => path === '/pair/hello' && (body.share = b64url(new Uint8Array(32))) }, 'tampered'],
      ['confirm for another session', { request: (path, body) => path === '/pair/confirm' && (body.sessionId = b64url(newSessionId())) }, 'closed'],
      ['joiner confirm', { request: (path, body) => path === '/pair/confirm' && (body.confirm = flipped(body.confirm)) }, 'wrongCode'],
    ];
    for (const [what, edit, reason] of cases) {
      const code = newPairingCode();
      const listener = await listen({ code });
      const error = await failure(join(await proxy(listener.address.port, edit), code));
      expect({ what, reason: error.reason }).toEqual({ what, reason });
      if (reason === 'tampered') expect(error.message).toMatch(/altered on its way/);
    }
  });

  it('expires: the outcome says so and joining fails', async () => {
    const code = newPairingCode();
    const listener = await listen({ code, expiresInMs: 200 });
    await expect(listener.outcome).resolves.toEqual({ kind: 'expired' });
    expect(['unreachable', 'closed']).toContain((await failure(join(listener, code))).reason);
  });

  it('answers a request that comes after the expiry time (by its clock) with closed', async () => {
    const clock = new ManualClock();
    const code = newPairingCode();
    const listener = await listen({ code, clock });
    clock.advance(5 * 60_000);
    const error = await failure(join(listener, code));
    expect(error.reason).toBe('closed');
    expect(error.message).toMatch(/Bar|no longer offers pairing/);
    await expect(listener.outcome).resolves.toEqual({ kind: 'expired' });
  });

  it('forgets a session not confirmed within 30 s, and the oldest of more than 4 pending; neither is a wrong attempt', async () => {
    const clock = new ManualClock();
    const code = newPairingCode();
    const listener = await listen({ code, clock });
    const port = listener.address.port;
    const stale = await handHello(port, code);
    clock.advance(30_000);
    expect((await rawAnswer(port, '/pair/confirm', stale.confirmBody)).status).toBe(409);
    const sessions = [];
    for (let i = 0; i < 5; i++) sessions.push(await handHello(port, code));
    expect((await rawAnswer(port, '/pair/confirm', sessions[0]?.confirmBody)).status).toBe(409);
    expect(listener.counts()).toEqual({ wrongCode: 0, malformed: 0, expiredSession: 2 });
    const paired = await rawAnswer(port, '/pair/confirm', sessions[4]?.confirmBody);
    expect(paired.status).toBe(200);
    await expect(listener.outcome).resolves.toEqual({ kind: 'paired', tillName: 'Patio' });
  });

  it('refuses malformed requests (a 5 KB body too), counts them, and changes nothing', async () => {
    const code = newPairingCode();
    const listener = await listen({ code });
    const port = listener.address.port;
    const share = b64url(pairingShare(randomScalar(), pairingGenerator(code, newSessionId())));
    const hello = { v: 1, sessionId: b64url(newSessionId()), tillName: 'Patio', share };
    const refused: Array<[string, string, unknown, string, number]> = [
      ['not JSON', '/pair/hello', '{"v":1,', 'POST', 400],
      ['an unknown key', '/pair/hello', { ...hello, extra: true }, 'POST', 400],
      ['another version', '/pair/hello', { ...hello, v: 2 }, 'POST', 400],
      ['a short share', '/pair/hello', { ...hello, share: share.slice(0, 42) }, 'POST', 400],
      ['padded base64', '/pair/hello', { ...hello, share: `${share}=` }, 'POST', 400],
      ['a share that is no point', '/pair/hello', { ...hello, share: b64url(new Uint8Array(32).fill(0xff)) }, 'POST', 400],
      ['the identity point', '/pair/hello', { ...hello, share: b64url(new Uint8Array(32)) }, 'POST', 400],
      ['a 65-character name', '/pair/hello', { ...hello, tillName: 'x'.repeat(65) }, 'POST', 400],
      ['a 5 KB body', '/pair/hello', { ...hello, tillName: 'x'.repeat(5 * 1024) }, 'POST', 400],
      ['a confirm of the wrong shape', '/pair/confirm', { v: 1, sessionId: hello.sessionId }, 'POST', 400],
      ['GET', '/pair/hello', null, 'GET', 404],
      ['another path', '/pair/other', hello, 'POST', 404],
    ];
    for (const [what, path, body, method, status] of refused) {
      const answer = await raw(port, path, body === null ? null : typeof body === 'string' ? body : JSON.stringify(body), method);
      expect({ what, status: typeof answer === 'string' ? answer : answer.status }).toEqual({ what, status });
      if (typeof answer !== 'string') expect(answer.headers['cache-control']).toBe('no-store');
    }
    expect(listener.counts()).toEqual({ wrongCode: 0, malformed: refused.length, expiredSession: 0 });
    const joined = await join(listener, code);
    expect(Buffer.from(joined.storeSecret).equals(Buffer.from(SECRET))).toBe(true);
  });

  it("is taken back by close(): outcome closed, the port refuses, and the joiner hears nobody's there", async () => {
    const code = newPairingCode();
    const listener = await listen({ code });
    await listener.close();
    await expect(listener.outcome).resolves.toEqual({ kind: 'closed' });
    const error = await failure(join(listener, code));
    expect(error.reason).toBe('unreachable');
    expect(error.message).toBe(`No till answers at 127.0.0.1:${listener.address.port}: is the code still shown there?`);
  });

  it('gives up on a till that does not answer within the timeout (unreachable)', async () => {
    const sockets = new Set<net.Socket>();
    const silent = net.createServer((socket) => sockets.add(socket));
    await new Promise<void>((resolve) => silent.listen(0, '127.0.0.1', resolve));
    cleanups.push(
      () =>
        new Promise<void>((resolve) => {
          silent.close(() => resolve());
          for (const socket of sockets) socket.destroy();
        }),
    );
    const port = (silent.address() as AddressInfo).port;
    const error = await failure(join({ address: { port } }, newPairingCode(), { timeoutMs: 300 }));
    expect(error.reason).toBe('unreachable');
  });

  it('tells a device that is no pairing listener apart (malformed)', async () => {
    const server = http.createServer((_req, res) => res.writeHead(200, { 'content-type': 'text/html' }).end('<html>router</html>'));
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    cleanups.push(() => new Promise<void>((resolve) => server.close(() => resolve())));
    const error = await failure(join({ address: { port: (server.address() as AddressInfo).port } }, newPairingCode()));
    expect(error.reason).toBe('malformed');
  });

  it('logs events, never the code, the secret or a protocol value', async () => {
    const capture = logCapture();
    const code = newPairingCode();
    const listener = await listen({ code, logger: capture.logger });
    const tap = await proxy(listener.address.port);
    await failure(join(listener, otherCode(code)));
    await raw(listener.address.port, '/pair/hello', '{not json');
    await join(tap, code);
    await listener.outcome;
    const lines = capture.lines();
    expect(lines.map((line) => line.event)).toEqual(
      expect.arrayContaining(['store-pairing.listening', 'store-pairing.wrong-code', 'store-pairing.malformed', 'store-pairing.paired']),
    );
    expect(lines.find((line) => line.event === 'store-pairing.paired')).toMatchObject({ tillName: 'Patio' });
    // The time, pid and host name are the logger's own and hold digits that could match a code by chance.
    const text = lines.map(({ time: _time, pid: _pid, hostname: _hostname, ...rest }) => JSON.stringify(rest)).join('\n');
    const forbidden = [code, formatPairingCode(code), ...(['hex', 'base64', 'base64url'] as const).map((encoding) => Buffer.from(SECRET).toString(encoding))];
    for (const exchange of tap.exchanges) {
      for (const body of [exchange.request, exchange.answer]) {
        for (const value of Object.values(JSON.parse(body) as Record<string, unknown>)) if (typeof value === 'string' && value.length >= 16) forbidden.push(value);
      }
    }
    for (const value of forbidden) expect(text).not.toContain(value);
  });
});
