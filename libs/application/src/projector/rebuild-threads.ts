import type { LomoConfig } from '@lomo/config';
import {
  ThreadedRebuildExecutor,
  type ProjectorSettings,
  type RebuildExecutor,
  type RebuildThreadsOptions,
} from '@lomo/read-models';

/**
 * Rebuilds run on worker threads when both stores are SQLite files the threads can open
 * themselves (embedded mode, or a shared SQLite event store with SQLite read models); on MongoDB
 * or EventStoreDB they run on the main thread.
 */
export function rebuildThreadsOf(
  settings: Pick<ProjectorSettings, 'mongodbUrl' | 'sqlitePath' | 'rebuildThreads'>,
  config: Pick<LomoConfig, 'LOMO_EVENTSTORE' | 'LOMO_SQLITE_PATH'>,
): RebuildThreadsOptions | undefined {
  const files = [config.LOMO_SQLITE_PATH, settings.sqlitePath];
  if (
    settings.rebuildThreads < 1 ||
    settings.mongodbUrl !== undefined ||
    config.LOMO_EVENTSTORE !== 'sqlite' ||
    files.some((file) => file === ':memory:' || file.startsWith('file:'))
  ) {
    return undefined;
  }
  return {
    threads: settings.rebuildThreads,
    events: { filename: config.LOMO_SQLITE_PATH },
    documents: { filename: settings.sqlitePath },
  };
}

/** The runner's rebuild executor: threaded where `rebuildThreadsOf` allows it, else the runner's default (this thread). */
export function rebuildExecutorOf(
  settings: Pick<ProjectorSettings, 'mongodbUrl' | 'sqlitePath' | 'rebuildThreads'>,
  config: Pick<LomoConfig, 'LOMO_EVENTSTORE' | 'LOMO_SQLITE_PATH'>,
): RebuildExecutor | undefined {
  const threads = rebuildThreadsOf(settings, config);
  return threads === undefined ? undefined : new ThreadedRebuildExecutor(threads);
}
