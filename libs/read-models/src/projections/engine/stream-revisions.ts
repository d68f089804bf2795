/**
 * The revision of each source stream a document has applied, stored in the document itself
 * (`_streams`). Keys are encoded stream ids: main streams are `main-{workspace}.{user}`, and a
 * document field name must not contain "."; "~" never occurs in a stream id, so the encoding is
 * reversible.
 */
export type StreamRevisions = { [streamKey: string]: number };

export const streamKey = (streamId: string): string =>
  streamId.includes('.') ? streamId.replaceAll('.', '~') : streamId;
export const streamIdOfKey = (key: string): string => key.replaceAll('~', '.');

/** -1 when the document has applied nothing of that stream. */
export const revisionIn = (revisions: StreamRevisions, streamId: string): number =>
  revisions[streamKey(streamId)] ?? -1;

export const withRevision = (revisions: StreamRevisions, streamId: string, revision: number): StreamRevisions => ({
  ...revisions,
  [streamKey(streamId)]: revision,
});

/** `{streamId: revision}` with the real stream ids, as change notices and readers show them. */
export function decodeRevisions(revisions: StreamRevisions): Record<string, number> {
  const decoded: Record<string, number> = {};
  for (const [key, revision] of Object.entries(revisions)) decoded[streamIdOfKey(key)] = revision;
  return decoded;
}

/** The id part of a stream id: `task-<id>` -> `<id>`. */
export const entityIdOf = (streamId: string): string => streamId.slice(streamId.indexOf('-') + 1);
