import { z } from 'zod';
import { isValidStreamId, ApiError, ApiErrorCodes } from '@lomo/contracts';

export interface StreamRevision {
  streamId: string;
  revision: number;
}

const VERSION = 1;
const MAX_PAIRS = 32;
/** Bounds what a client can make the server decode. */
const MAX_ENCODED_LENGTH = 8_192;

const payload = z.strictObject({
  v: z.literal(VERSION),
  p: z
    .array(
      z.tuple([
        z.string().max(220).refine(isValidStreamId, 'stream id'),
        z.number().int().min(0).max(Number.MAX_SAFE_INTEGER),
      ]),
    )
    .max(MAX_PAIRS),
});

const invalid = (reason: string) =>
  new ApiError(ApiErrorCodes.INVALID_CONSISTENCY_TOKEN, `Invalid consistency token: ${reason}`, { reason });

/**
 * A mutation's consistency token: base64url of `{"v":1,"p":[[streamId, revision], ...]}`. Opaque to
 * clients; the version lets the format change (say, to carry EventStoreDB positions) while tokens
 * already handed out are still read or clearly refused.
 */
export function encodeConsistencyToken(pairs: readonly StreamRevision[]): string {
  const p = pairs.map((pair) => [pair.streamId, pair.revision] as const);
  return Buffer.from(JSON.stringify({ v: VERSION, p }), 'utf8').toString('base64url');
}

export function decodeConsistencyToken(encoded: string): StreamRevision[] {
  if (encoded.length === 0 || encoded.length > MAX_ENCODED_LENGTH || !/^[A-Za-z0-9_-]+$/.test(encoded)) {
    throw invalid('not a token this API issued');
  }
  let raw: unknown;
  try {
    raw = JSON.parse(Buffer.from(encoded, 'base64url').toString('utf8'));
  } catch {
    throw invalid('not a token this API issued');
  }
  const parsed = payload.safeParse(raw);
  if (!parsed.success) throw invalid('unknown version or malformed content');
  return parsed.data.p.map(([streamId, revision]) => ({ streamId, revision }));
}
