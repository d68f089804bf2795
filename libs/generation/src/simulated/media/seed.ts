import { createHash } from 'node:crypto';

/** 32 bytes derived from the prompt: the same prompt always yields the same media. */
export function promptDigest(prompt: string): Buffer {
  return createHash('sha256').update(prompt, 'utf8').digest();
}
