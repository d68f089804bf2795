import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { Socket } from 'node:net';
import { mkdirSync, renameSync, writeFileSync } from 'node:fs';
import * as path from 'node:path';
import type { Clock } from '@lomo/contracts';
import { silentLogger, type Logger } from '@lomo/observability';
import {
  seededRandom,
  SimulatedUpstream,
  type SimulatedCallbackDelivery,
  type SimulatedReply,
} from './simulated-upstream';
import type { SimulatedUpstreamControl } from './upstream-config';
import { JsonFileSimulatedStateStore } from './upstream-state';

export interface SimulatedUpstreamServerOptions {
  host?: string;
  /** 0 picks a free port; the chosen one is logged and written to portFile. */
  port?: number;
  stateFile: string;
  portFile?: string;
  seed?: number;
  start?: SimulatedUpstreamControl;
  logger?: Logger;
  clock?: Clock;
  /** How often jobs are advanced (and their callbacks sent). */
  stepIntervalMs?: number;
  /** Per callback attempt. */
  callbackTimeoutMs?: number;
  /** Attempts per callback delivery when the receiver is down or answers 5xx. */
  callbackAttempts?: number;
}

export interface RunningSimulatedUpstream {
  url: string;
  port: number;
  upstream: SimulatedUpstream;
  /** Stops listening, drops held connections, waits for queued callbacks. */
  close(): Promise<void>;
}

const maxBodyBytes = 32 * 1024 * 1024;

function readBody(req: IncomingMessage): Promise<Buffer | 'too-large'> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    req.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size <= maxBodyBytes) chunks.push(chunk);
    });
    req.on('end', () => resolve(size > maxBodyBytes ? 'too-large' : Buffer.concat(chunks)));
    req.on('error', reject);
  });
}

function writeReply(res: ServerResponse, reply: SimulatedReply): void {
  res.writeHead(reply.status, { ...reply.headers, 'content-length': String(reply.body.length) });
  res.end(reply.body);
}

/** A port file, written like the state file (temp + rename), so a reader never sees half a number. */
function writePortFile(file: string, port: number): void {
  mkdirSync(path.dirname(file), { recursive: true });
  const temp = `${file}.${process.pid}.tmp`;
  writeFileSync(temp, `${port}\n`);
  renameSync(temp, file);
}

/**
 * The simulated upstream as its own HTTP service (node:http): the endpoints are SimulatedUpstream's
 * (`handle`); this file only moves bytes, sends callbacks and plays the connection-level faults.
 */
export async function startSimulatedUpstreamServer(
  options: SimulatedUpstreamServerOptions,
): Promise<RunningSimulatedUpstream> {
  const logger = options.logger ?? silentLogger;
  const host = options.host ?? '127.0.0.1';
  const callbackTimeoutMs = options.callbackTimeoutMs ?? 5000;
  const callbackAttempts = options.callbackAttempts ?? 3;
  let callbackQueue: Promise<void> = Promise.resolve();
  let closing = false;

  async function post(delivery: SimulatedCallbackDelivery): Promise<void> {
    for (let attempt = 1; attempt <= callbackAttempts; attempt++) {
      try {
        const res = await fetch(delivery.url, {
          method: 'POST',
          headers: delivery.headers,
          body: delivery.body,
          signal: AbortSignal.timeout(callbackTimeoutMs),
        });
        await res.arrayBuffer();
        logger.debug({ eventId: delivery.eventId, status: res.status, attempt }, 'simulated callback delivered');
        // A 4xx is the receiver's verdict on this delivery: sending it again would not change it.
        if (res.status < 500) return;
      } catch (error) {
        logger.warn({ eventId: delivery.eventId, attempt, err: (error as Error).message }, 'simulated callback failed');
      }
      if (closing) return;
      await new Promise((r) => setTimeout(r, 100 * attempt));
    }
  }

  // One queue for all deliveries: they leave in the order the upstream produced them, so the
  // shuffles of outOfOrderProgress are what a receiver sees, not accidents of concurrency.
  const deliver = (delivery: SimulatedCallbackDelivery) => {
    callbackQueue = callbackQueue.then(() => post(delivery));
  };

  const upstream = new SimulatedUpstream({
    clock: options.clock,
    random: seededRandom(options.seed ?? 1),
    store: new JsonFileSimulatedStateStore(options.stateFile),
    deliver,
    logger,
    start: options.start,
  });

  const sockets = new Set<Socket>();
  const held = new Set<ServerResponse>();
  let port = options.port ?? 0;

  const server: Server = createServer((req, res) => {
    void (async () => {
      const body = await readBody(req);
      if (body === 'too-large') {
        writeReply(res, { status: 413, headers: {}, body: Buffer.from('{"error":{"code":"too_large"}}') });
        return;
      }
      const headers: Record<string, string | undefined> = {};
      for (const [name, value] of Object.entries(req.headers))
        headers[name] = Array.isArray(value) ? value.join(', ') : value;
      const outcome = await upstream.handle({ method: req.method ?? 'GET', url: req.url ?? '/', headers, body });
      if (outcome.kind === 'reply') {
        writeReply(res, outcome.reply);
        if (req.url?.startsWith('/control') && req.method === 'POST' && upstream.takeRefuseFault()) {
          res.once('finish', () => refuseFor(upstream.faults.refuseMs));
        }
        return;
      }
      if (outcome.kind === 'hang') {
        held.add(res);
        res.once('close', () => held.delete(res));
        if (outcome.afterMs !== null) {
          const timer = setTimeout(() => {
            if (!res.writableEnded && !res.destroyed) writeReply(res, outcome.reply);
          }, outcome.afterMs);
          res.once('close', () => clearTimeout(timer));
        }
        return;
      }
      // 'refuse' reaches here only from a code path the server never takes (takeRefuseFault runs first).
      res.destroy();
    })().catch((error: unknown) => {
      logger.error({ err: (error as Error).message, url: req.url }, 'simulated upstream request failed');
      if (!res.headersSent)
        writeReply(res, { status: 500, headers: {}, body: Buffer.from('{"error":{"code":"internal"}}') });
      else res.destroy();
    });
  });
  server.on('connection', (socket) => {
    sockets.add(socket);
    socket.once('close', () => sockets.delete(socket));
  });

  const listen = () =>
    new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(port, host, () => {
        server.off('error', reject);
        resolve();
      });
    });

  /**
   * 'refuse': the listener closes, so new connections get ECONNREFUSED; open keep-alive sockets
   * are dropped too, or a client would go on reusing them. It listens again after `ms`.
   */
  function refuseFor(ms: number): void {
    logger.info({ ms }, 'simulated upstream refusing connections');
    server.close();
    for (const socket of sockets) socket.destroy();
    setTimeout(() => {
      if (closing) return;
      listen().then(
        () => logger.info({ port }, 'simulated upstream accepting connections again'),
        (error: unknown) =>
          logger.error({ err: (error as Error).message, port }, 'simulated upstream could not listen again'),
      );
    }, ms);
  }

  await listen();
  port = (server.address() as { port: number }).port;
  const url = `http://${host}:${port}`;
  if (options.portFile) writePortFile(options.portFile, port);
  const stepper = setInterval(() => {
    try {
      upstream.step();
    } catch (error) {
      logger.error({ err: (error as Error).message }, 'simulated upstream step failed');
    }
  }, options.stepIntervalMs ?? 20);
  logger.info({ url, port, stateFile: options.stateFile, jobs: upstream.allJobs().length }, 'sim-upstream listening');
  if (upstream.takeRefuseFault()) refuseFor(upstream.faults.refuseMs);

  return {
    url,
    port,
    upstream,
    async close() {
      closing = true;
      clearInterval(stepper);
      const closed = new Promise<void>((resolve) => server.close(() => resolve()));
      for (const res of held) res.destroy();
      server.closeAllConnections();
      await closed;
      await callbackQueue;
      logger.info({ port }, 'sim-upstream stopped');
    },
  };
}
