import type { GenerationJobView } from '../service/generation-requests.port';

/** Minor units as the currency writes them (cents → 0.40 USD, yen stay whole). */
export function formatMinor(amountMinor: number, currency: string): string {
  let digits = 2;
  try {
    digits = new Intl.NumberFormat('en', { style: 'currency', currency }).resolvedOptions().maximumFractionDigits ?? 2;
  } catch {
    // An unknown code still reads as an amount; two decimals is the common case.
  }
  return `${(amountMinor / 10 ** digits).toFixed(digits)} ${currency}`;
}

/**
 * The line the model reads for a pending media call: the job, its phase and what it costs, so
 * it can tell the person whether to approve something or only wait.
 */
export function pendingJobNote(job: GenerationJobView): string {
  const quote = formatMinor(job.quote.amountMinor, job.quote.currency);
  const head = `job ${job.jobId} is ${job.phase}`;
  switch (job.phase) {
    case 'awaiting_approval':
      return `${head}: quote ${quote} needs the person's approval; the result arrives as this call's result once approved and made`;
    case 'requested':
      return `${head}: quote ${quote}; the result arrives as this call's result`;
    case 'submitted':
      return `${head} (${job.progress}%): quote ${quote}; the result arrives as this call's result`;
    case 'completed':
      return `${head}: artefact ${job.artifactId ?? '(not recorded yet)'}; cost ${quote}`;
    case 'failed':
      return `${head}: ${job.failure?.reason ?? 'failed'}: ${job.failure?.message ?? 'no message'}`;
  }
}
