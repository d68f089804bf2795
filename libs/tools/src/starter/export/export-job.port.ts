export type ExportFormat = 'markdown' | 'text' | 'html';

/** What `export.document` hands to the runner: the call's identity plus the document. */
export interface ExportRequest {
  workspaceId: string;
  taskId: string;
  turnId: string;
  callId: string;
  idempotencyKey: string;
  /** Trace of the call; the completion event carries it. */
  correlationId: string;
  title: string;
  format: ExportFormat;
  content: string;
}

export type ExportJobStatus = 'pending' | 'completed' | 'failed';

export interface ExportJob extends ExportRequest {
  /** Derived from (workspace, idempotency key): one call, one job, whoever submits it. */
  jobId: string;
  status: ExportJobStatus;
  createdAt: string;
  /** Epoch milliseconds at which the simulated work is done; kept so a restart waits only what is left. */
  dueAtMs: number;
  /** Failed attempts to produce and record the export. */
  attempts: number;
}

/** Durable jobs. A job stays `pending` until its completion is on the turn stream. */
export interface ExportJobStore {
  /** Idempotent: a second submit of the same key returns the first job, unchanged. */
  insertIfAbsent(job: ExportJob): Promise<{ job: ExportJob; inserted: boolean }>;
  get(jobId: string): Promise<ExportJob | undefined>;
  /** Pending jobs, oldest due first: what a (re)started runner must finish. */
  pending(): Promise<ExportJob[]>;
  /** Counts one failed attempt; returns the new count. */
  recordFailure(jobId: string): Promise<number>;
  markFinished(jobId: string, status: Exclude<ExportJobStatus, 'pending'>, at: Date): Promise<void>;
  close(): Promise<void>;
}
