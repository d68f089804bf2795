import { encodeConsistencyToken, type StreamRevision } from '../../consistency/consistency-token';

/** `{streamId: revision}` of the source streams a read-model document has applied. */
export type Revisions = Readonly<Record<string, number>>;

/** The most pairs a consistency token may name (the API refuses longer tokens). */
const MAX_TOKEN_PAIRS = 32;

/**
 * Whether `next` is a strictly later state of the same document than `previous`: no stream went
 * back and at least one moved on. Equal states are duplicates; a state with any stream behind
 * was read before one already sent, and sending it would move the client backwards.
 */
export function isNewer(previous: Revisions | undefined, next: Revisions): boolean {
  if (previous === undefined) return true;
  let advanced = false;
  for (const [streamId, revision] of Object.entries(previous)) {
    const now = next[streamId];
    if (now === undefined || now < revision) return false;
    if (now > revision) advanced = true;
  }
  return advanced || Object.keys(next).some((streamId) => previous[streamId] === undefined);
}

/**
 * The consistency token of a state: its (stream, revision) pairs. A task with many turns has more
 * source streams than a token may hold; then the document's own stream comes first, then the
 * streams that moved since the previous state sent, then the rest, so the token still names the
 * change this payload brings.
 */
export function tokenOfRevisions(revisions: Revisions, primaryStreamId: string, previous?: Revisions): string {
  const pairs: StreamRevision[] = Object.entries(revisions).map(([streamId, revision]) => ({ streamId, revision }));
  if (pairs.length > MAX_TOKEN_PAIRS) {
    const rank = (p: StreamRevision) =>
      p.streamId === primaryStreamId ? 0 : previous === undefined || previous[p.streamId] !== p.revision ? 1 : 2;
    pairs.sort((a, b) => rank(a) - rank(b) || b.revision - a.revision || a.streamId.localeCompare(b.streamId));
  }
  return encodeConsistencyToken(pairs.slice(0, MAX_TOKEN_PAIRS));
}
