import type { Collection, Db } from 'mongodb';
import type { ExportJob, ExportJobStatus, ExportJobStore } from '../starter/export/export-job.port';
import { ExportJobMissingError } from '../starter/export/export-errors';
import { guard, insertNext, isDuplicateKey } from './mongo-tool-errors';

type JobDoc = Omit<ExportJob, 'jobId'> & { _id: string; finishedAt?: string };

export interface MongoExportJobStoreOptions {
  db: Db;
  /** Collection name prefix; default `tools_export_jobs`. */
  prefix?: string;
}

const STORE = 'MongoDB export job store';

/**
 * Export jobs on MongoDB or FerretDB, so any executor finishes a job another one accepted. Same
 * semantics as SqliteExportJobStore, on unique inserts only (FerretDB 1.24 has no atomic
 * filtered update or $inc, see libs/read-models/src/document-store/mongodb/server-profile.ts):
 * a job is a unique insert of its id, each failed attempt a unique insert of `${jobId}:${n}`,
 * and finishing is a unique insert of the job's outcome, copied onto the job afterwards (a
 * finisher killed in between is repaired by the next one, since a pending job is run again).
 */
export class MongoExportJobStore implements ExportJobStore {
  private readonly jobs: Collection<JobDoc>;
  private readonly failures: Collection<{ _id: string; jobId: string; n: number }>;
  private readonly outcomes: Collection<{ _id: string; status: Exclude<ExportJobStatus, 'pending'>; at: string }>;
  private indexes: Promise<unknown> | undefined;

  constructor(options: MongoExportJobStoreOptions) {
    const prefix = options.prefix ?? 'tools_export_jobs';
    this.jobs = options.db.collection(prefix);
    this.failures = options.db.collection(`${prefix}_failures`);
    this.outcomes = options.db.collection(`${prefix}_outcomes`);
  }

  async insertIfAbsent(job: ExportJob): Promise<{ job: ExportJob; inserted: boolean }> {
    return guard(STORE, 'insertIfAbsent', async () => {
      await this.ready();
      const { jobId, ...rest } = job;
      let inserted = true;
      try {
        await this.jobs.insertOne({ _id: jobId, ...rest });
      } catch (error) {
        if (!isDuplicateKey(error)) throw error;
        inserted = false;
      }
      const stored = await this.read(jobId);
      if (!stored) throw new ExportJobMissingError(jobId);
      return { job: stored, inserted };
    });
  }

  get(jobId: string): Promise<ExportJob | undefined> {
    return guard(STORE, 'get', () => this.read(jobId));
  }

  async pending(): Promise<ExportJob[]> {
    return guard(STORE, 'pending', async () => {
      const docs = await this.jobs.find({ status: 'pending' }).sort({ dueAtMs: 1, _id: 1 }).toArray();
      const jobs = await Promise.all(docs.map((d) => this.withAttempts(d)));
      return jobs.filter((j) => j.status === 'pending');
    });
  }

  async recordFailure(jobId: string): Promise<number> {
    return guard(STORE, 'recordFailure', async () => {
      await this.ready();
      const doc = await this.jobs.findOne({ _id: jobId });
      if (doc === null) return 0;
      const n = await insertNext(
        async () => ((await this.failures.find({ jobId }).sort({ n: -1 }).limit(1).next())?.n ?? 0) + 1,
        (next) => this.failures.insertOne({ _id: `${jobId}:${next}`, jobId, n: next }),
      );
      return doc.attempts + n;
    });
  }

  async markFinished(jobId: string, status: Exclude<ExportJobStatus, 'pending'>, at: Date): Promise<void> {
    await guard(STORE, 'markFinished', async () => {
      try {
        await this.outcomes.insertOne({ _id: jobId, status, at: at.toISOString() });
      } catch (error) {
        if (!isDuplicateKey(error)) throw error;
      }
      // The first outcome stands, whoever copies it.
      const outcome = await this.outcomes.findOne({ _id: jobId });
      if (outcome !== null)
        await this.jobs.updateOne({ _id: jobId }, { $set: { status: outcome.status, finishedAt: outcome.at } });
    });
  }

  /** The client belongs to whoever opened it (one per process). */
  async close(): Promise<void> {}

  private ready(): Promise<unknown> {
    this.indexes ??= Promise.all([
      this.jobs.createIndex({ workspaceId: 1, idempotencyKey: 1 }, { unique: true }),
      this.jobs.createIndex({ status: 1, dueAtMs: 1 }),
      this.failures.createIndex({ jobId: 1, n: 1 }),
    ]).catch((error: unknown) => {
      this.indexes = undefined;
      throw error;
    });
    return this.indexes;
  }

  private async read(jobId: string): Promise<ExportJob | undefined> {
    const doc = await this.jobs.findOne({ _id: jobId });
    return doc === null ? undefined : this.withAttempts(doc);
  }

  private async withAttempts(doc: JobDoc): Promise<ExportJob> {
    const [failed, outcome] = await Promise.all([
      this.failures.countDocuments({ jobId: doc._id }),
      doc.status === 'pending' ? this.outcomes.findOne({ _id: doc._id }) : Promise.resolve(null),
    ]);
    return {
      jobId: doc._id,
      workspaceId: doc.workspaceId,
      taskId: doc.taskId,
      turnId: doc.turnId,
      callId: doc.callId,
      idempotencyKey: doc.idempotencyKey,
      correlationId: doc.correlationId,
      title: doc.title,
      format: doc.format,
      content: doc.content,
      status: outcome?.status ?? doc.status,
      createdAt: doc.createdAt,
      dueAtMs: doc.dueAtMs,
      attempts: doc.attempts + failed,
    };
  }
}
