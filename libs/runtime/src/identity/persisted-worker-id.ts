import { mkdirSync } from 'node:fs';
import { dirname } from 'node:path';
import Database from 'better-sqlite3';
import { LomoError, ValidationError, workerId as workerIdSchema, type Clock, type IdGenerator } from '@lomo/contracts';

/** Another live process holds the persisted worker id of this data directory. */
export class WorkerIdInUseError extends LomoError {
  readonly code = 'WORKER_ID_IN_USE';
  /** It clears when the other process exits (its lock goes with it). */
  readonly retriable = true;
  constructor(filename: string) {
    super(
      `Another running process holds the executor identity in ${filename}; two executors with one worker id ` +
        'would take each other’s turns. Stop the other process, give this one another LOMO_DATA_DIR, or set LOMO_WORKER_ID.',
      { filename },
    );
  }
}

export interface PersistedWorkerIdOptions {
  filename: string;
  ids: IdGenerator;
  clock: Clock;
  /** How long to wait for a previous process that is still exiting to let go. */
  waitMs?: number;
}

/**
 * The executor's worker id in embedded mode, made once and kept in the data directory, so a
 * restarted process knows the turns its predecessor held (worker/reclaim-own-turns.ts) instead
 * of coming back as `<hostname>-<pid>`, a stranger that must wait out every lease.
 *
 * The file is also the guard against two live processes with one id: it is an SQLite database
 * held in EXCLUSIVE locking mode for the whole life of the process. The lock is the operating
 * system's (fcntl), so it goes with the process however it ends, SIGKILL included, and a second
 * process on the same directory is refused with WorkerIdInUseError instead of starting. The id is
 * committed (synchronous=FULL) before it is used, so a crash never leaves a lease under an id
 * that was not kept.
 */
export class PersistedWorkerId {
  private constructor(
    readonly workerId: string,
    private readonly db: Database.Database,
  ) {}

  static acquire(options: PersistedWorkerIdOptions): PersistedWorkerId {
    mkdirSync(dirname(options.filename), { recursive: true });
    const db = new Database(options.filename, { timeout: options.waitMs ?? 2_000 });
    try {
      try {
        // Reading the journal mode already needs a lock the holder keeps, so a busy error may come
        // from any of these. BEGIN EXCLUSIVE takes the exclusive lock, and in EXCLUSIVE locking
        // mode the connection keeps it after COMMIT, until it closes.
        db.pragma('journal_mode = DELETE');
        db.pragma('synchronous = FULL');
        db.pragma('locking_mode = EXCLUSIVE');
        db.exec('BEGIN EXCLUSIVE');
      } catch (error) {
        if (isBusy(error)) throw new WorkerIdInUseError(options.filename);
        throw error;
      }
      db.exec(
        `CREATE TABLE IF NOT EXISTS executor_identity (
           singleton INTEGER PRIMARY KEY CHECK (singleton = 1),
           worker_id TEXT NOT NULL,
           created_at TEXT NOT NULL
         )`,
      );
      const row = db.prepare('SELECT worker_id FROM executor_identity WHERE singleton = 1').get() as
        { worker_id: string } | undefined;
      const workerId = row?.worker_id ?? `executor-${options.ids.uuid()}`;
      if (row === undefined)
        db.prepare('INSERT INTO executor_identity (singleton, worker_id, created_at) VALUES (1, ?, ?)').run(
          workerId,
          options.clock.now().toISOString(),
        );
      db.exec('COMMIT');
      // A file edited by hand into something a lease cannot carry fails here, by name.
      if (!workerIdSchema.safeParse(workerId).success)
        throw new ValidationError(`The worker id kept in ${options.filename} is not a valid worker id`, [
          { path: 'executor_identity.worker_id', message: `"${workerId}" is not a valid worker id` },
        ]);
      return new PersistedWorkerId(workerId, db);
    } catch (error) {
      db.close();
      throw error;
    }
  }

  /** Lets go of the lock: only once this process holds no lease it could still write under. */
  close(): void {
    if (this.db.open) this.db.close();
  }
}

function isBusy(error: unknown): boolean {
  const code = (error as { code?: unknown } | null)?.code;
  return code === 'SQLITE_BUSY' || code === 'SQLITE_LOCKED';
}
