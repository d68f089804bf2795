import { join } from 'node:path';
import type { BlobStore } from '@lomo/blobs';
import type { EventBus } from '@lomo/bus';
import type { LomoConfig } from '@lomo/config';
import type { Clock } from '@lomo/contracts';
import type { EventStore } from '@lomo/eventstore';
import type { Logger } from '@lomo/observability';
import {
  createStarterTools,
  ExportJobRunner,
  SqliteExportJobStore,
  SqliteNotesStore,
  ToolRegistry,
  type ToolDecorator,
} from '@lomo/tools';

/** The starter tools and what they stand on; the executor owns their lifecycle in embedded mode. */
export interface StarterTools {
  registry: ToolRegistry;
  exports: ExportJobRunner;
  close(): Promise<void>;
}

export function createStarterToolSet(
  config: LomoConfig,
  store: EventStore,
  bus: EventBus,
  blobs: BlobStore,
  clock: Clock,
  logger: Logger,
  decorate?: ToolDecorator,
): StarterTools {
  const filename = join(config.LOMO_DATA_DIR, 'tools.sqlite');
  const notes = SqliteNotesStore.open({ filename, synchronous: config.LOMO_SQLITE_SYNCHRONOUS });
  const jobs = SqliteExportJobStore.open({ filename, synchronous: config.LOMO_SQLITE_SYNCHRONOUS });
  const exports = new ExportJobRunner({
    jobs,
    events: store,
    blobs,
    bus,
    clock,
    onError: (error, jobId) =>
      logger.warn(
        { jobId, error: error instanceof Error ? error.message : String(error) },
        'export job attempt failed',
      ),
  });
  const registry = new ToolRegistry(createStarterTools({ notes, history: store, exports, decorate }));
  return {
    registry,
    exports,
    close: async () => {
      await exports.stop();
      await jobs.close();
      await notes.close();
    },
  };
}
