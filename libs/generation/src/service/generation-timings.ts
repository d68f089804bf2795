/**
 * How long the generation service waits for what (DESIGN.md §4 step 5). All in milliseconds.
 *
 * - `submitTimeoutMs`: a job whose submission started and has no upstream id after this long is
 *   given up (the crash window between the upstream's acceptance and recording its id): failed,
 *   charged and refunded, never resubmitted.
 * - `reservationTtlMs`: a reservation that never reached submit (a crash before sending) expires
 *   after this long and is released.
 * - `silenceMs`: a job of a provider that calls back, silent for this long, is polled once
 *   (compensation polling for lost callbacks); again after each further silence.
 * - `pollInitialMs` / `pollMaxMs`: providers without callbacks are polled with a backoff that
 *   starts at the first and doubles up to the second.
 * - `jobTimeoutMs`: a submitted job that reports nothing for this long is given up as outcome
 *   unknown (refunded).
 * - `submitRetryInitialMs` / `submitRetryMaxMs` / `maxSubmitAttempts`: a 429 or a refused
 *   connection proves no job was made and is retried with backoff (a 429's Retry-After wins
 *   when longer), within the submit timeout.
 * - `downloadAttempts`: result downloads retried without regenerating.
 */
export interface GenerationTimings {
  submitTimeoutMs: number;
  reservationTtlMs: number;
  silenceMs: number;
  pollInitialMs: number;
  pollMaxMs: number;
  jobTimeoutMs: number;
  submitRetryInitialMs: number;
  submitRetryMaxMs: number;
  maxSubmitAttempts: number;
  downloadAttempts: number;
}

export const DEFAULT_GENERATION_TIMINGS: GenerationTimings = {
  submitTimeoutMs: 120_000,
  reservationTtlMs: 180_000,
  silenceMs: 30_000,
  pollInitialMs: 1_000,
  pollMaxMs: 30_000,
  jobTimeoutMs: 3_600_000,
  submitRetryInitialMs: 500,
  submitRetryMaxMs: 15_000,
  maxSubmitAttempts: 6,
  downloadAttempts: 4,
};
