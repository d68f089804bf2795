import { createHash } from 'node:crypto';
import { z } from 'zod';

/** Workspace and user ids are slugs: they appear inside stream ids joined by "." and "-". */
export const slug = z
  .string()
  .regex(/^[a-z0-9][a-z0-9_]{0,62}$/, 'lowercase letters, digits and "_", 1-63 characters, starting alphanumeric');
export const workspaceId = slug;
export const userId = slug;

export const uuid = z.uuid();
export const messageId = uuid;
export const taskId = uuid;
export const turnId = uuid;
export const itemId = uuid;
export const checkpointId = uuid;

/** Tool-call ids are `{turnId}:{step}:{index}` so a retry or a takeover lands on the same id. */
export const callId = z
  .string()
  .regex(
    /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}:[1-9][0-9]*:[0-9]+$/,
    'callId must be {turnId}:{step}:{index}',
  );

export const makeCallId = (turn: string, step: number, index: number) => `${turn}:${step}:${index}`;

export const workerId = z.string().regex(/^[A-Za-z0-9_.:-]{1,128}$/);
export const sha256Hex = z.string().regex(/^[0-9a-f]{64}$/, 'sha256 hex digest');
export const isoDateTime = z.iso.datetime({ offset: true });
/** BCP 47 language tag, e.g. "en", "zh-Hans", "pt-BR". */
export const languageTag = z.string().regex(/^[a-z]{2,3}(-[A-Za-z0-9]{2,8})*$/, 'BCP 47 language tag');
export const toolName = z.string().regex(/^[a-z][a-z0-9_.]{0,63}$/, 'tool names are lowercase, dotted or snake_case');
export const artifactRef = z
  .string()
  .regex(/^artifact:[0-9a-f-]{36}(@[0-9]+)?(#[A-Za-z0-9_-]{1,64})?$/, 'artifact:<uuid>[@version][#node]');

/**
 * Name-based UUID (v5 layout over SHA-1): the same inputs always give the same id, which is how
 * uniqueness is enforced with "no stream" appends (message ids, task ids, job ids).
 */
export function deterministicUuid(namespace: string, ...parts: string[]): string {
  const hash = createHash('sha1').update(namespace).update('\u0000').update(parts.join('\u0000')).digest();
  const b = Buffer.from(hash.subarray(0, 16));
  b[6] = (b[6] & 0x0f) | 0x50;
  b[8] = (b[8] & 0x3f) | 0x80;
  const h = b.toString('hex');
  return `${h.slice(0, 8)}-${h.slice(8, 12)}-${h.slice(12, 16)}-${h.slice(16, 20)}-${h.slice(20)}`;
}
