import { LomoError } from '@lomo/contracts';

/** A job row that should exist does not (another process deleted the file's rows?). */
export class ExportJobMissingError extends LomoError {
  readonly code = 'EXPORT_JOB_MISSING';
  readonly retriable = false;
  constructor(readonly jobId: string) {
    super(`Export job ${jobId} is not in the job store`, { jobId });
  }
}
