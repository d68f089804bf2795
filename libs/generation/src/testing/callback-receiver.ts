import { createServer } from 'node:http';

export interface ReceivedCallback {
  headers: Record<string, string | string[] | undefined>;
  rawBody: Buffer;
  at: number;
}

export interface CallbackReceiver {
  url: string;
  received: ReceivedCallback[];
  /** Resolves once `match` holds for the received list (checked on every arrival). */
  waitFor(match: (received: ReceivedCallback[]) => boolean, what: string, timeoutMs?: number): Promise<void>;
  close(): Promise<void>;
}

/** A tiny HTTP server that records every callback POSTed to it and answers `status` (204). */
export async function startCallbackReceiver(options: { status?: () => number } = {}): Promise<CallbackReceiver> {
  const received: ReceivedCallback[] = [];
  const waiters = new Set<() => void>();
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      received.push({ headers: req.headers, rawBody: Buffer.concat(chunks), at: Date.now() });
      res.writeHead(options.status?.() ?? 204).end();
      for (const wake of waiters) wake();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as { port: number }).port;
  return {
    url: `http://127.0.0.1:${port}/callbacks/generation/simulated`,
    received,
    waitFor: (match, what, timeoutMs = 10_000) =>
      new Promise<void>((resolve, reject) => {
        const check = () => {
          if (!match(received)) return;
          clearTimeout(timer);
          waiters.delete(check);
          resolve();
        };
        const timer = setTimeout(() => {
          waiters.delete(check);
          reject(new Error(`callback receiver: no ${what} within ${timeoutMs} ms (got ${received.length})`));
        }, timeoutMs);
        waiters.add(check);
        check();
      }),
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
