import type Database from 'better-sqlite3';
import { openToolsDatabase, type ToolsDatabaseOptions } from '../../sqlite/open-tools-database';
import type { ExportFormat, ExportJob, ExportJobStatus, ExportJobStore } from './export-job.port';
import { ExportJobMissingError } from './export-errors';

const EXPORT_JOBS_DDL = `
CREATE TABLE IF NOT EXISTS export_jobs (
  job_id          TEXT PRIMARY KEY,
  workspace_id    TEXT NOT NULL,
  idempotency_key TEXT NOT NULL,
  task_id         TEXT NOT NULL,
  turn_id         TEXT NOT NULL,
  call_id         TEXT NOT NULL,
  correlation_id  TEXT NOT NULL,
  title           TEXT NOT NULL,
  format          TEXT NOT NULL,
  content         TEXT NOT NULL,
  status          TEXT NOT NULL,
  created_at      TEXT NOT NULL,
  due_at_ms       INTEGER NOT NULL,
  attempts        INTEGER NOT NULL DEFAULT 0,
  finished_at     TEXT,
  UNIQUE (workspace_id, idempotency_key)
);
CREATE INDEX IF NOT EXISTS export_jobs_pending ON export_jobs (status, due_at_ms);
`;

interface JobRow {
  job_id: string;
  workspace_id: string;
  idempotency_key: string;
  task_id: string;
  turn_id: string;
  call_id: string;
  correlation_id: string;
  title: string;
  format: ExportFormat;
  content: string;
  status: ExportJobStatus;
  created_at: string;
  due_at_ms: number;
  attempts: number;
}

/** Export jobs in SQLite, so a restarted runner finds the jobs it had not finished. */
export class SqliteExportJobStore implements ExportJobStore {
  private constructor(private readonly db: Database.Database) {}

  static open(options: ToolsDatabaseOptions): SqliteExportJobStore {
    return new SqliteExportJobStore(openToolsDatabase(options, EXPORT_JOBS_DDL));
  }

  async insertIfAbsent(job: ExportJob): Promise<{ job: ExportJob; inserted: boolean }> {
    const inserted = this.db
      .prepare(
        `INSERT INTO export_jobs (job_id, workspace_id, idempotency_key, task_id, turn_id, call_id, correlation_id,
           title, format, content, status, created_at, due_at_ms, attempts)
         VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?) ON CONFLICT DO NOTHING`,
      )
      .run(
        job.jobId,
        job.workspaceId,
        job.idempotencyKey,
        job.taskId,
        job.turnId,
        job.callId,
        job.correlationId,
        job.title,
        job.format,
        job.content,
        job.status,
        job.createdAt,
        job.dueAtMs,
        job.attempts,
      );
    const stored = await this.get(job.jobId);
    if (!stored) throw new ExportJobMissingError(job.jobId);
    return { job: stored, inserted: inserted.changes === 1 };
  }

  async get(jobId: string): Promise<ExportJob | undefined> {
    const row = this.db.prepare<[string], JobRow>('SELECT * FROM export_jobs WHERE job_id = ?').get(jobId);
    return row ? toJob(row) : undefined;
  }

  async pending(): Promise<ExportJob[]> {
    return this.db
      .prepare<[], JobRow>("SELECT * FROM export_jobs WHERE status = 'pending' ORDER BY due_at_ms, job_id")
      .all()
      .map(toJob);
  }

  async recordFailure(jobId: string): Promise<number> {
    const row = this.db
      .prepare<[string], { attempts: number }>(
        'UPDATE export_jobs SET attempts = attempts + 1 WHERE job_id = ? RETURNING attempts',
      )
      .get(jobId);
    return row?.attempts ?? 0;
  }

  async markFinished(jobId: string, status: Exclude<ExportJobStatus, 'pending'>, at: Date): Promise<void> {
    this.db
      .prepare("UPDATE export_jobs SET status = ?, finished_at = ? WHERE job_id = ? AND status = 'pending'")
      .run(status, at.toISOString(), jobId);
  }

  async close(): Promise<void> {
    if (this.db.open) this.db.close();
  }
}

function toJob(row: JobRow): ExportJob {
  return {
    jobId: row.job_id,
    workspaceId: row.workspace_id,
    idempotencyKey: row.idempotency_key,
    taskId: row.task_id,
    turnId: row.turn_id,
    callId: row.call_id,
    correlationId: row.correlation_id,
    title: row.title,
    format: row.format,
    content: row.content,
    status: row.status,
    createdAt: row.created_at,
    dueAtMs: row.due_at_ms,
    attempts: row.attempts,
  };
}
