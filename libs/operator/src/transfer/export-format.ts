import { blobRef, isoDateTime, sha256Hex, workspaceId } from '@lomo/contracts';
import { z } from 'zod';

/**
 * The on-disk shape of a workspace export (`lomo export`), read back by `lomo import`:
 *
 *     <dir>/manifest.json    what is there, with a sha-256 for every part (written last)
 *     <dir>/events.ndjson    one stored event per line, in the store's global order
 *     <dir>/blobs/<hash>     the content of every blob the events reference and the store still had
 *
 * A blob no store had any more (forgotten content, DESIGN.md §4 "Deletable content") travels as
 * a tombstone in the manifest instead of a file, so an import neither expects nor invents it.
 */
export const EXPORT_FORMAT = 'lomo.workspace-export';
export const EXPORT_FORMAT_VERSION = 1;
export const MANIFEST_FILE = 'manifest.json';
export const EVENTS_FILE = 'events.ndjson';
export const BLOBS_DIR = 'blobs';

/** Why a referenced blob is not in the export. */
export const tombstoneReason = z.enum([
  /** A completed forgetting deleted it (its ForgettingCompleted report names the hash). */
  'forgotten',
  /** The source store did not have it and no exported event says why. */
  'absent',
  /** The source store's bytes did not hash to the reference. */
  'corrupt',
]);
export type TombstoneReason = z.infer<typeof tombstoneReason>;

const streamEntry = z.strictObject({
  streamId: z.string().min(3).max(220),
  events: z.number().int().min(1),
  lastRevision: z.number().int().min(0),
  /** Of the stream's lines, each with its "\n", in file order. */
  sha256: sha256Hex,
});

/** The BlobStores of a deployment (TransferSources): which one(s) held a blob, and take it on import. */
export const blobStoreName = z.enum(['blobs', 'document_texts']);
export type BlobStoreName = z.infer<typeof blobStoreName>;

const blobEntry = z.strictObject({
  ref: blobRef,
  stores: z.array(blobStoreName).min(1).max(2),
  /** Of the file's bytes: equals `ref.hash` for a sound blob (addresses are content hashes). */
  sha256: sha256Hex,
  bytes: z.number().int().min(0),
});

const tombstoneEntry = z.strictObject({
  ref: blobRef,
  reason: tombstoneReason,
  forgettingId: z.string().max(200).optional(),
});

export const exportManifest = z.strictObject({
  format: z.literal(EXPORT_FORMAT),
  formatVersion: z.literal(EXPORT_FORMAT_VERSION),
  workspaceId,
  exportedAt: isoDateTime,
  exportedBy: z.strictObject({
    tokenId: z.string().min(1).max(200),
    tokenName: z.string().max(200),
    userId: z.string().min(1).max(200),
    workspaceId: z.string().min(1).max(200),
    kind: z.enum(['person', 'integration', 'operator']),
  }),
  /**
   * `workspace`: every stream of it (an operator's export). `person_view`: what a person of the
   * workspace may read, without the other people's private streams.
   */
  scope: z.enum(['workspace', 'person_view']),
  counts: z.strictObject({
    events: z.number().int().min(0),
    streams: z.number().int().min(0),
    blobs: z.number().int().min(0),
    tombstones: z.number().int().min(0),
  }),
  eventsFile: z.strictObject({ sha256: sha256Hex, bytes: z.number().int().min(0) }),
  streams: z.array(streamEntry),
  blobs: z.array(blobEntry),
  tombstones: z.array(tombstoneEntry),
});
export type ExportManifest = z.infer<typeof exportManifest>;
export type ExportedStream = z.infer<typeof streamEntry>;
export type ExportedBlob = z.infer<typeof blobEntry>;
export type ExportTombstone = z.infer<typeof tombstoneEntry>;

/** One line of events.ndjson: the stored envelope without its store-specific global position. */
export const exportedEventLine = z.strictObject({
  type: z.string().min(1).max(80),
  data: z.unknown(),
  metadata: z.looseObject({
    eventId: z.string(),
    streamId: z.string().min(3).max(220),
    revision: z.number().int().min(0),
    occurredAt: isoDateTime,
    schemaVersion: z.number().int().min(1),
    workspaceId: z.string(),
  }),
});
export type ExportedEventLine = z.infer<typeof exportedEventLine>;
