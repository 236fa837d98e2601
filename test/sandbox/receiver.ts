// A real webhook receiver on loopback that records raw bodies and headers and answers as told.
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface Arrival {
  rawBody: Buffer;
  signature: string;
  contentType: string;
  receivedAt: number;
  answeredAt?: number;
}

/** What to do with the n-th arrival (0-based): a status, optionally after a delay; 'hang' never answers. */
export type Behaviour = (arrival: Arrival, index: number) => { status: number; delayMs?: number } | 'hang';

export interface Receiver {
  url: string;
  arrivals: Arrival[];
  behaviour: Behaviour;
  close(): Promise<void>;
}

export async function startReceiver(behaviour: Behaviour = () => ({ status: 200 })): Promise<Receiver> {
  const hanging = new Set<ServerResponse>();
  const receiver: Receiver = { url: '', arrivals: [], behaviour, close: async () => undefined };
  const server = createServer((req: IncomingMessage, res: ServerResponse) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const arrival: Arrival = {
        rawBody: Buffer.concat(chunks),
        signature: String(req.headers['service-signature'] ?? ''),
        contentType: String(req.headers['content-type'] ?? ''),
        receivedAt: Date.now(),
      };
      const index = receiver.arrivals.push(arrival) - 1;
      const decision = receiver.behaviour(arrival, index);
      if (decision === 'hang') {
        hanging.add(res);
        return;
      }
      setTimeout(() => {
        arrival.answeredAt = Date.now();
        res.writeHead(decision.status);
        res.end();
      }, decision.delayMs ?? 0);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  receiver.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/hooks`;
  receiver.close = () =>
    new Promise((resolve) => {
      for (const res of hanging) res.destroy();
      server.closeAllConnections();
      server.close(() => resolve());
    });
  return receiver;
}

export async function waitFor(predicate: () => boolean | Promise<boolean>, timeoutMs = 5000, what = 'condition'): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await predicate())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 5));
  }
}
