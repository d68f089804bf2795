import { z } from 'zod';

/** A JSON value (tool arguments and results): recursive, but never "anything". */
export const jsonValue = z.json();

export const typedError = z.strictObject({
  code: z.string().regex(/^[A-Z][A-Z0-9_]{1,63}$/),
  message: z.string().min(1).max(4000),
  retriable: z.boolean(),
});

/** A reference to content kept in the BlobStore (prompts, large outputs, deletable text). */
export const blobRef = z.strictObject({
  hash: z.string().regex(/^[0-9a-f]{64}$/),
  bytes: z.number().int().min(0),
  contentType: z.string().regex(/^[a-z]+\/[a-z0-9.+-]+$/),
});

/** `continuation`: the runtime's own ContinuationDecided started the turn, not the person. */
export const wakeReason = z.enum(['message', 'approval', 'job_completed', 'resume', 'watchdog', 'continuation']);

/** Text that is not empty or only whitespace (validated, never rewritten). */
export const nonBlank = (max: number) => z.string().max(max).regex(/\S/, 'must not be blank');
