import { blobRef, type EventEnvelope } from '@lomo/contracts';
import type { BlobRef } from '@lomo/blobs';

const BLOB_REF_KEYS = ['bytes', 'contentType', 'hash'];

/**
 * Every blob reference in an event's data, in the order met (depth first), each hash once.
 *
 * Found by shape rather than by event type: a blob reference is an object with exactly `hash`,
 * `bytes` and `contentType` that passes the contracts' `blobRef` (libs/contracts/src/events/shared.ts),
 * wherever it sits (a version's `text`, an artefact's `content.blob`, a snapshot, a patch, a
 * prompt or a tool result). So a new event type carrying one is exported without a change here.
 * A document's text summary `{hash, bytes, snapshot?}` is not one (no content type): its bytes are
 * the snapshot's and the patches', which are references of their own.
 */
export function blobReferencesOf(data: unknown): BlobRef[] {
  const found = new Map<string, BlobRef>();
  const visit = (value: unknown): void => {
    if (Array.isArray(value)) {
      for (const item of value) visit(item);
      return;
    }
    if (value === null || typeof value !== 'object') return;
    if (isBlobRefShaped(value)) {
      const ref = blobRef.safeParse(value);
      if (ref.success) {
        if (!found.has(ref.data.hash)) found.set(ref.data.hash, ref.data);
        return;
      }
    }
    for (const child of Object.values(value)) visit(child);
  };
  visit(data);
  return [...found.values()];
}

const isBlobRefShaped = (value: object): boolean => {
  const keys = Object.keys(value).sort();
  return keys.length === BLOB_REF_KEYS.length && keys.every((key, i) => key === BLOB_REF_KEYS[i]);
};

/**
 * The blob hashes a completed forgetting deleted, with the forgetting that did it: what turns a
 * missing blob into a `forgotten` tombstone rather than an `absent` one.
 */
export function forgottenBlobsOf(event: EventEnvelope): Array<{ hash: string; forgettingId: string }> {
  if (event.type !== 'ForgettingCompleted') return [];
  const data = event.data as { forgettingId: string; report: { blobsDeleted: readonly string[] } };
  return data.report.blobsDeleted.map((hash) => ({ hash, forgettingId: data.forgettingId }));
}
