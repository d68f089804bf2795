import { GenerationOutcomeUnknownError } from '../provider/generation-errors';

type Entry<T> =
  | { state: 'pending'; promise: Promise<T> }
  | { state: 'done'; value: T }
  | { state: 'unknown'; error: GenerationOutcomeUnknownError };

/**
 * In-process memory of submissions, keyed by idempotency key (or an id derived from it), so a
 * repeated submit of the same key never makes a second paid request from this process:
 * - a submission in flight is shared by every caller of the same key;
 * - a success is answered again from memory;
 * - an outcome-unknown is answered again with the same error (a job may exist: never resend);
 * - an error that proves no job exists (429, 4xx, refused connection) is forgotten, so a later
 *   submit with the same key may try again.
 * Bounded: beyond `maxEntries` the oldest settled entries are dropped (Map keeps insertion order).
 * It is only memory: another process, or this one after a restart, does not see it (README.md).
 */
export class SubmissionLedger<T> {
  private readonly entries = new Map<string, Entry<T>>();

  constructor(private readonly maxEntries: number) {}

  get(key: string): Entry<T> | undefined {
    return this.entries.get(key);
  }

  async submit(key: string, send: () => Promise<T>): Promise<T> {
    const known = this.entries.get(key);
    if (known?.state === 'done') return known.value;
    if (known?.state === 'unknown') throw known.error;
    if (known?.state === 'pending') return known.promise;

    const promise = send().then(
      (value) => {
        this.entries.set(key, { state: 'done', value });
        this.evict();
        return value;
      },
      (error: unknown) => {
        if (error instanceof GenerationOutcomeUnknownError) this.entries.set(key, { state: 'unknown', error });
        else this.entries.delete(key);
        this.evict();
        throw error;
      },
    );
    this.entries.set(key, { state: 'pending', promise });
    return promise;
  }

  private evict(): void {
    for (const [key, entry] of this.entries) {
      if (this.entries.size <= this.maxEntries) return;
      if (entry.state !== 'pending') this.entries.delete(key);
    }
  }
}
