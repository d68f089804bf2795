import { isMainThread, parentPort, workerData } from 'node:worker_threads';
import { SqliteEventStore } from '@lomo/eventstore';
import type { Logger } from '@lomo/observability';
import { SqliteDocumentStore } from '../../document-store/sqlite/sqlite-document-store';
import { sharedWriteLock } from '../../document-store/sqlite/sqlite-write-lock';
import { readModelProjections } from '../read-model-projections';
import { RebuildInterruptedError } from '../engine/errors';
import { rebuildCollections, type RebuildTarget } from '../engine/rebuild';
import type { RebuildThreadData, RebuildThreadMessage } from './rebuild-threads';
import { TurnTaskLookup } from '../engine/turn-task-lookup';

/**
 * A worker thread's side of `rebuildOnThread`: opens its own connections to the event store and
 * read-model files, rebuilds its group of projections with `rebuildCollections`, and reports
 * progress, log lines and the result to the thread that started it.
 */

const post = (message: RebuildThreadMessage) => parentPort?.postMessage(message);
const THREAD_BUSY_TIMEOUT_MS = 60_000;

/** Log lines go to the starting thread's logger. */
function threadLogger(bindings: Record<string, unknown> = {}): Logger {
  const log =
    (level: 'debug' | 'info' | 'warn' | 'error') =>
    (context: Record<string, unknown>, message: string): void => {
      const merged = { ...bindings, ...context };
      try {
        post({ type: 'log', level, context: merged, message });
      } catch {
        // A value that cannot be cloned: the line still goes, as JSON.
        post({ type: 'log', level, context: JSON.parse(JSON.stringify(merged)) as Record<string, unknown>, message });
      }
    };
  return {
    debug: log('debug'),
    info: log('info'),
    warn: log('warn'),
    error: log('error'),
    child: (more) => threadLogger({ ...bindings, ...more }),
  };
}

function targetsOf(data: RebuildThreadData): RebuildTarget[] {
  return data.targets.map(({ name, version, physical }) => {
    const definition = readModelProjections.find((p) => p.name === name && p.version === version);
    if (definition === undefined) throw new Error(`No projection ${name} version ${version} on this thread`);
    return { definition, physical };
  });
}

async function run(data: RebuildThreadData): Promise<void> {
  const stop = new Int32Array(data.stop);
  const targets = targetsOf(data);
  const names = targets.map((t) => t.definition.name);
  const events = new SqliteEventStore(data.events);
  let documents: SqliteDocumentStore | undefined;
  try {
    // Threads take turns through the lock; the busy timeout waits out the calling thread's writes.
    documents = new SqliteDocumentStore({
      busyTimeoutMs: THREAD_BUSY_TIMEOUT_MS,
      ...data.documents,
      writeLock: sharedWriteLock(data.writeLock),
    });
    post({ type: 'ready' });
    const result = await rebuildCollections(targets, {
      documents,
      events,
      context: new TurnTaskLookup(events),
      logger: threadLogger(),
      batchSize: data.batchSize,
      tuning: data.tuning,
      onBatch: async (progress) => {
        if (Atomics.load(stop, 0) !== 0) throw new RebuildInterruptedError(names);
        post({ type: 'progress', events: progress.events });
      },
    });
    post({ type: 'done', result });
  } finally {
    await documents?.close();
    await events.close();
  }
}

if (!isMainThread && (workerData as Partial<RebuildThreadData> | null)?.lomoRebuildThread === 1) {
  run(workerData as RebuildThreadData).catch((error: unknown) => {
    if (error instanceof RebuildInterruptedError) {
      post({ type: 'interrupted' });
      return;
    }
    const e = error instanceof Error ? error : new Error(String(error));
    post({ type: 'failed', name: e.name, message: e.message, stack: e.stack });
  });
}
