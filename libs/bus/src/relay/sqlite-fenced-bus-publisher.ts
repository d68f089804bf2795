import type Database from 'better-sqlite3';
import { UnknownTopicError } from '../errors';
import { migrateBusLog } from '../in-process/bus-log-schema';
import { guarded } from '../in-process/sqlite-errors';
import { acquireWakeSignals, type WakeSignals } from '../in-process/wake-signals';
import { serializeMessages } from '../message-validation';
import { partitionFor } from '../partitioner';
import { RelayFencedError, RelayLeaseLapsedError } from './relay-errors';
import { openLeaseDatabase, type SqliteFileOptions } from './relay-lease-schema';
import type { RelayBatch, RelayPublisher } from './relay-publisher.port';

export interface SqliteFencedBusPublisherOptions extends SqliteFileOptions {
  /** The relay whose lease (in `relay_leases` of this same file) fences the appends. */
  relayId: string;
}

/**
 * The embedded mode's fenced relay output: appends a round to the in-process bus log (the file
 * InProcessEventBus opens) in one BEGIN IMMEDIATE transaction that first checks the relay's lease
 * epoch in the same file. A relay that was paused past its lease and wakes after a standby took
 * over carries a stale epoch, and its whole round is refused atomically: the check and the write
 * cannot be separated by another process's takeover, as they could with a check before publish.
 *
 * It writes SqliteBusLog's tables directly (SqliteBusLog.append has no fence hook); migrateBusLog
 * refuses a newer bus-log schema, so a schema change fails loudly here rather than silently.
 */
export class SqliteFencedBusPublisher implements RelayPublisher {
  private readonly statements;
  private readonly signals: WakeSignals;
  private readonly releaseSignals: () => void;

  private constructor(
    private readonly db: Database.Database,
    private readonly relayId: string,
    filename: string,
  ) {
    const acquired = acquireWakeSignals(filename);
    this.signals = acquired.signals;
    this.releaseSignals = acquired.release;
    this.statements = {
      epoch: db.prepare<[string], { epoch: number }>('SELECT epoch FROM relay_leases WHERE relay_id = ?'),
      partitions: db.prepare<[string], { partitions: number }>('SELECT partitions FROM bus_topics WHERE name = ?'),
      endOffset: db.prepare<[string, number], { next: number }>(
        'SELECT COALESCE(MAX(msg_offset) + 1, 0) AS next FROM bus_messages WHERE topic = ? AND partition = ?',
      ),
      insert: db.prepare(
        'INSERT INTO bus_messages (topic, partition, msg_offset, msg_key, value, headers, accepted_at) VALUES (?, ?, ?, ?, ?, ?, ?)',
      ),
    };
  }

  static open(options: SqliteFencedBusPublisherOptions): SqliteFencedBusPublisher {
    const db = openLeaseDatabase(options);
    try {
      guarded('open', () => migrateBusLog(db));
    } catch (error) {
      db.close();
      throw error;
    }
    return new SqliteFencedBusPublisher(db, options.relayId, options.filename);
  }

  async activate(): Promise<void> {
    // Nothing to initialize: the epoch in relay_leases is the fence, checked on every append.
  }

  async publish(batches: readonly RelayBatch[], epoch: number, signal?: AbortSignal): Promise<void> {
    if (signal?.aborted) throw new RelayLeaseLapsedError(this.relayId, 'lease lost before the round was written');
    const serialized = batches.map((b) => ({ ...b, values: serializeMessages(b.messages) }));
    guarded('fenced append', () =>
      this.db
        .transaction(() => {
          const current = this.statements.epoch.get(this.relayId)?.epoch;
          if (current !== epoch) {
            throw new RelayFencedError(this.relayId, epoch, `the lease is at epoch ${current ?? 'none'}`);
          }
          const now = Date.now();
          for (const { topic, messages, values } of serialized) {
            const partitions = this.statements.partitions.get(topic)?.partitions;
            if (partitions === undefined) throw new UnknownTopicError(topic);
            const next = new Map<number, number>();
            messages.forEach((m, i) => {
              const partition = partitionFor(m.key, partitions);
              const offset = next.get(partition) ?? this.statements.endOffset.get(topic, partition)?.next ?? 0;
              const headers = JSON.stringify(m.headers ?? {});
              this.statements.insert.run(topic, partition, offset, m.key, values[i], headers, now);
              next.set(partition, offset + 1);
            });
          }
        })
        .immediate(),
    );
    for (const { topic } of batches) this.signals.published(topic);
  }

  async close(): Promise<void> {
    this.releaseSignals();
    if (this.db.open) this.db.close();
  }
}
