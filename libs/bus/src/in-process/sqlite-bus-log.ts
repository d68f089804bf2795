import Database from 'better-sqlite3';
import { TopicConflictError } from '../errors';
import type { DeadLetter, PartitionOffset, ReceivedMessage, TopicSpec } from '../event-bus.port';
import { migrateBusLog } from './bus-log-schema';
import { GroupCoordinator } from './group-coordinator';
import { guarded } from './sqlite-errors';
import { acquireWakeSignals, type WakeSignals } from './wake-signals';

export interface SqliteBusLogOptions {
  /** A file path, or ':memory:' (one process, one log object: unit tests). */
  filename: string;
  /**
   * FULL (default) fsyncs the WAL on every commit, so an accepted publish survives a power
   * loss; NORMAL survives a process crash only and is faster.
   */
  synchronous?: 'FULL' | 'NORMAL';
  /** How long a write waits for another process's write lock before failing as unavailable. */
  busyTimeoutMs?: number;
}

export interface AppendRow {
  partition: number;
  key: string;
  value: string;
  headers: string;
}

interface MessageRow {
  topic: string;
  partition: number;
  msg_offset: number;
  msg_key: string;
  value: string;
  headers: string;
  accepted_at: number;
}

interface DeadLetterRow extends MessageRow {
  group_id: string;
  error_code: string;
  error_message: string;
  attempts: number;
  dead_lettered_at: string;
}

/**
 * The durable log behind the in-process bus: per-partition messages with dense offsets,
 * committed offsets per group, dead letters, and (through `groups`) group membership.
 * Every call is a short transaction, so several processes can share one file.
 */
export class SqliteBusLog {
  readonly groups: GroupCoordinator;
  readonly signals: WakeSignals;
  private readonly releaseSignals: () => void;
  private readonly partitionCache = new Map<string, number>();
  private readonly statements;

  private constructor(
    private readonly db: Database.Database,
    filename: string,
  ) {
    const acquired = acquireWakeSignals(filename);
    this.signals = acquired.signals;
    this.releaseSignals = acquired.release;
    this.groups = new GroupCoordinator(db);
    this.statements = {
      topic: db.prepare<[string], { partitions: number }>('SELECT partitions FROM bus_topics WHERE name = ?'),
      insertTopic: db.prepare('INSERT INTO bus_topics (name, partitions, created_at) VALUES (?, ?, ?)'),
      endOffset: db.prepare<[string, number], { next: number }>(
        'SELECT COALESCE(MAX(msg_offset) + 1, 0) AS next FROM bus_messages WHERE topic = ? AND partition = ?',
      ),
      insertMessage: db.prepare(
        'INSERT INTO bus_messages (topic, partition, msg_offset, msg_key, value, headers, accepted_at) VALUES (?, ?, ?, ?, ?, ?, ?)',
      ),
      read: db.prepare<[string, number, number, number], MessageRow>(
        `SELECT topic, partition, msg_offset, msg_key, value, headers, accepted_at FROM bus_messages
         WHERE topic = ? AND partition = ? AND msg_offset >= ? ORDER BY msg_offset LIMIT ?`,
      ),
      committed: db.prepare<[string, string], { partition: number; next_offset: number }>(
        'SELECT partition, next_offset FROM bus_committed_offsets WHERE group_id = ? AND topic = ?',
      ),
      deadLetters: db.prepare<[string], DeadLetterRow>('SELECT * FROM bus_dead_letters WHERE group_id = ? ORDER BY id'),
      allDeadLetters: db.prepare<[], DeadLetterRow>('SELECT * FROM bus_dead_letters ORDER BY id'),
    };
  }

  static open(options: SqliteBusLogOptions): SqliteBusLog {
    return guarded('open', () => {
      const db = new Database(options.filename, { timeout: options.busyTimeoutMs ?? 5000 });
      try {
        if (options.filename !== ':memory:') db.pragma('journal_mode = WAL');
        db.pragma(`synchronous = ${options.synchronous ?? 'FULL'}`);
        migrateBusLog(db);
        return new SqliteBusLog(db, options.filename);
      } catch (error) {
        db.close();
        throw error;
      }
    });
  }

  get isOpen(): boolean {
    return this.db.open;
  }

  ensureTopics(specs: readonly TopicSpec[]): void {
    guarded('ensureTopics', () =>
      this.db
        .transaction(() => {
          for (const spec of specs) {
            const existing = this.statements.topic.get(spec.name);
            if (existing && existing.partitions !== spec.partitions) {
              throw new TopicConflictError(spec.name, existing.partitions, spec.partitions);
            }
            if (!existing) this.statements.insertTopic.run(spec.name, spec.partitions, Date.now());
          }
        })
        .immediate(),
    );
  }

  /** Partition count, or undefined for a topic that does not exist. */
  partitionCount(topic: string): number | undefined {
    const cached = this.partitionCache.get(topic);
    if (cached !== undefined) return cached;
    // Topics never change their count, so a found one is cached for good.
    const row = guarded('partitionCount', () => this.statements.topic.get(topic));
    if (row) this.partitionCache.set(topic, row.partitions);
    return row?.partitions;
  }

  /** One transaction: the whole batch is accepted or none of it. */
  append(topic: string, rows: readonly AppendRow[]): void {
    guarded('append', () =>
      this.db
        .transaction(() => {
          const now = Date.now();
          const next = new Map<number, number>();
          for (const row of rows) {
            const offset = next.get(row.partition) ?? this.statements.endOffset.get(topic, row.partition)?.next ?? 0;
            this.statements.insertMessage.run(topic, row.partition, offset, row.key, row.value, row.headers, now);
            next.set(row.partition, offset + 1);
          }
        })
        .immediate(),
    );
    this.signals.published(topic);
  }

  read(topic: string, partition: number, fromOffset: number, limit: number): ReceivedMessage[] {
    return guarded('read', () => this.statements.read.all(topic, partition, fromOffset, limit).map(toMessage));
  }

  endOffset(topic: string, partition: number): number {
    return guarded('endOffset', () => this.statements.endOffset.get(topic, partition)?.next ?? 0);
  }

  committedOffsets(groupId: string, topic: string, partitions: number): PartitionOffset[] {
    const rows = guarded('committedOffsets', () => this.statements.committed.all(groupId, topic));
    const byPartition = new Map(rows.map((r) => [r.partition, r.next_offset]));
    return Array.from({ length: partitions }, (_, partition) => ({
      partition,
      offset: byPartition.get(partition) ?? null,
    }));
  }

  /** The group's dead letters, or every group's when `groupId` is undefined; oldest first. */
  readDeadLetters(groupId: string | undefined): DeadLetter[] {
    const rows = guarded('readDeadLetters', () =>
      groupId === undefined ? this.statements.allDeadLetters.all() : this.statements.deadLetters.all(groupId),
    );
    return rows.map((row) => ({
      groupId: row.group_id,
      topic: row.topic,
      message: toMessage(row),
      error: { code: row.error_code, message: row.error_message },
      attempts: row.attempts,
      deadLetteredAt: row.dead_lettered_at,
    }));
  }

  close(): void {
    this.releaseSignals();
    if (this.db.open) this.db.close();
  }
}

function toMessage(row: MessageRow): ReceivedMessage {
  return {
    topic: row.topic,
    partition: row.partition,
    offset: row.msg_offset,
    key: row.msg_key,
    value: JSON.parse(row.value) as Record<string, unknown>,
    headers: JSON.parse(row.headers) as Record<string, string>,
    timestamp: row.accepted_at,
  };
}
