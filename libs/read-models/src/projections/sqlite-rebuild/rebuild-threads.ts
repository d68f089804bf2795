import { extname, join, resolve } from 'node:path';
import { Worker } from 'node:worker_threads';
import type { Logger } from '@lomo/observability';
import type { SqliteSynchronous } from '../../document-store/sqlite/sqlite-document-store';
import { readModelProjections } from '../read-model-projections';
import { RebuildInterruptedError } from '../engine/errors';
import type { AnyProjection } from '../engine/projection-definition';
import type { EngineTuning } from '../engine/projection-engine';
import type { RebuildResult, RebuildTarget } from '../engine/rebuild';

/**
 * Rebuilds on worker threads: each thread opens its own connections to the same SQLite files and
 * rebuilds one group of projections with `rebuildCollections`, exactly as this thread would (the
 * same engine in rebuild mode, the same bulk writes). The calling thread only coordinates: it
 * renews the rebuild leases on progress and switches the aliases, and stays free for live work.
 */
export interface RebuildThreadsOptions {
  /** Threads to rebuild on, at most one per group of projections; 0 rebuilds on the calling thread. */
  threads: number;
  /** The event store's SQLite file. */
  events: { filename: string; busyTimeoutMs?: number };
  /**
   * The read models' SQLite file: the one the runner's DocumentStore writes. The threads take
   * turns with a lock of their own; the busy timeout (default 60 s) is for other writers.
   */
  documents: { filename: string; synchronous?: SqliteSynchronous; busyTimeoutMs?: number };
  /**
   * Smaller logs are rebuilt on the calling thread: starting a thread (loading the code again)
   * costs more than it saves below this many events in the store. Default 50 000.
   */
  minEvents?: number;
  /**
   * Young generation of each thread's heap, in MB (0: V8's default). A rebuild makes a new
   * version of a document per event and keeps thousands alive between batches; with V8's default
   * it spends a fifth of its time copying them, and 160 MB made a 1 000 000-event rebuild 15-20 %
   * faster on two cores (more did not help). Default 160.
   */
  youngGenerationMb?: number;
}

/** A projection a thread can rebuild: one it loads itself, the very same definition. */
export const canRebuildOnThread = (definition: AnyProjection): boolean => readModelProjections.includes(definition);

const DEFAULT_YOUNG_GENERATION_MB = 160;
export const DEFAULT_REBUILD_THREADS_MIN_EVENTS = 50_000;

/** What the thread is given (structured-cloned). */
export interface RebuildThreadData {
  lomoRebuildThread: 1;
  targets: Array<{ name: string; version: number; physical: string }>;
  events: RebuildThreadsOptions['events'];
  documents: RebuildThreadsOptions['documents'];
  batchSize: number;
  tuning: EngineTuning | undefined;
  /** Int32 0 = go on, 1 = stop at the next batch: read without waiting for the thread's event loop. */
  stop: SharedArrayBuffer;
  /** The write lock the threads of one rebuild share (sharedWriteLock). */
  writeLock: SharedArrayBuffer;
}

export type RebuildThreadMessage =
  | { type: 'ready' }
  | { type: 'progress'; events: number }
  | {
      type: 'log';
      level: 'debug' | 'info' | 'warn' | 'error';
      context: Record<string, unknown>;
      message: string;
    }
  | { type: 'done'; result: RebuildResult }
  | { type: 'interrupted' }
  | { type: 'failed'; name: string; message: string; stack: string | undefined };

/** The thread could not start its rebuild (it did not load or open its stores): nothing was written. */
export class RebuildThreadUnavailableError extends Error {
  constructor(readonly reason: string) {
    super(`Rebuild thread unavailable: ${reason}`);
    this.name = 'RebuildThreadUnavailableError';
  }
}

/** An error raised inside the thread, with its name and stack. */
export class RebuildThreadError extends Error {
  constructor(name: string, message: string, stack: string | undefined) {
    super(message);
    this.name = name;
    if (stack !== undefined) this.stack = stack;
  }
}

/**
 * The thread's entry: the compiled `.js` next to this file, or from the sources the `.ts` with
 * the repository's TypeScript hook (a worker does not inherit a test runner's transform).
 */
function threadEntry(): { filename: string; execArgv: string[] } {
  const extension = extname(__filename);
  const filename = join(__dirname, `rebuild-thread${extension}`);
  if (extension !== '.ts') return { filename, execArgv: process.execArgv };
  const hook = resolve(__dirname, '../../../../../scripts/register.cjs');
  const hooked = process.execArgv.some((arg) => arg.endsWith('register.cjs'));
  return { filename, execArgv: hooked ? process.execArgv : [...process.execArgv, '-r', hook] };
}

export interface RebuildOnThreadOptions {
  threads: RebuildThreadsOptions;
  batchSize: number;
  tuning?: EngineTuning;
  /** Aborting stops the rebuild at its next batch (through a flag the thread reads at every batch). */
  signal: AbortSignal;
  /** Shared by the threads of one rebuild: they take turns writing the read-model file. */
  writeLock: SharedArrayBuffer;
  logger: Logger;
  onProgress: (events: number) => void;
}

/**
 * Rebuilds `targets` on a new worker thread. Resolves with the rebuild's result once the thread
 * closed its connections; rejects with RebuildInterruptedError after a stop,
 * RebuildThreadUnavailableError when the thread failed before it began, or the thread's error.
 */
export function rebuildOnThread(
  targets: readonly RebuildTarget[],
  options: RebuildOnThreadOptions,
): Promise<RebuildResult> {
  const names = targets.map((t) => t.definition.name);
  const stop = new Int32Array(new SharedArrayBuffer(4));
  const data: RebuildThreadData = {
    lomoRebuildThread: 1,
    targets: targets.map((t) => ({ name: t.definition.name, version: t.definition.version, physical: t.physical })),
    events: options.threads.events,
    documents: options.threads.documents,
    batchSize: options.batchSize,
    tuning: options.tuning,
    stop: stop.buffer as SharedArrayBuffer,
    writeLock: options.writeLock,
  };
  const entry = threadEntry();
  const onAbort = () => Atomics.store(stop, 0, 1);
  if (options.signal.aborted) onAbort();
  else options.signal.addEventListener('abort', onAbort, { once: true });
  const settled = new Promise<RebuildResult>((resolvePromise, reject) => {
    let worker: Worker;
    try {
      worker = new Worker(entry.filename, {
        workerData: data,
        execArgv: entry.execArgv,
        resourceLimits:
          options.threads.youngGenerationMb === 0
            ? {}
            : { maxYoungGenerationSizeMb: options.threads.youngGenerationMb ?? DEFAULT_YOUNG_GENERATION_MB },
      });
    } catch (error) {
      reject(new RebuildThreadUnavailableError(error instanceof Error ? error.message : String(error)));
      return;
    }
    let started = false;
    let outcome: { result: RebuildResult } | { error: Error } | undefined;
    worker.on('message', (message: RebuildThreadMessage) => {
      switch (message.type) {
        case 'ready':
          started = true;
          break;
        case 'progress':
          options.onProgress(message.events);
          break;
        case 'log':
          options.logger[message.level](message.context, message.message);
          break;
        case 'done':
          outcome = { result: message.result };
          break;
        case 'interrupted':
          outcome = { error: new RebuildInterruptedError(names) };
          break;
        case 'failed': {
          const error = new RebuildThreadError(message.name, message.message, message.stack);
          outcome = {
            error: started ? error : new RebuildThreadUnavailableError(`${message.name}: ${message.message}`),
          };
          break;
        }
      }
    });
    worker.on('error', (error) => {
      outcome ??= { error: started ? error : new RebuildThreadUnavailableError(error.message) };
    });
    worker.on('exit', (code) => {
      if (outcome === undefined) {
        const reason = `the thread exited with code ${code} without a result`;
        outcome = { error: started ? new Error(reason) : new RebuildThreadUnavailableError(reason) };
      }
      if ('result' in outcome) resolvePromise(outcome.result);
      else reject(outcome.error);
    });
  });
  return settled.finally(() => options.signal.removeEventListener('abort', onAbort));
}
