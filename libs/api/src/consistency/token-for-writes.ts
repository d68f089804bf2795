import { encodeConsistencyToken, type StreamRevision } from './consistency-token';

/** The token of a mutation: every stream it wrote (or found already written), at its revision. */
export function tokenForWrites(
  writes: ReadonlyArray<{ streamId: string; revision: number | null | 'no_stream' }>,
): string {
  const pairs: StreamRevision[] = writes.flatMap((w) =>
    typeof w.revision === 'number' && w.revision >= 0 ? [{ streamId: w.streamId, revision: w.revision }] : [],
  );
  return encodeConsistencyToken(pairs);
}
