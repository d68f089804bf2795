import type { BlobStore } from '@lomo/blobs';
import { streams } from '@lomo/contracts';
import type { EventStore } from '@lomo/eventstore';

/**
 * The latest media bytes of reference artefacts (image.edit, image to video): the newest event of
 * each artefact stream that carries a blob, read in the caller's workspace only. An artefact of
 * another workspace, without media, or whose bytes are gone is left out (the provider then sees
 * fewer references; the tool's schema already demanded valid ids).
 */
export function artifactReferences(store: EventStore, blobs: Pick<BlobStore, 'get'>) {
  return async (
    workspaceId: string,
    artifactIds: readonly string[],
  ): Promise<Array<{ contentType: string; bytes: Buffer }>> => {
    const found: Array<{ contentType: string; bytes: Buffer }> = [];
    for (const artifactId of artifactIds) {
      const events = await store.readStream(streams.artifact(artifactId));
      if (events.length === 0 || events[0].metadata.workspaceId !== workspaceId) continue;
      for (let i = events.length - 1; i >= 0; i -= 1) {
        const content = (
          events[i].data as { content?: { type?: string; blob?: { hash: string; contentType: string } } }
        ).content;
        if (content?.type !== 'blob' || content.blob === undefined) continue;
        const bytes = await blobs.get(content.blob.hash);
        if (bytes !== undefined) found.push({ contentType: content.blob.contentType, bytes });
        break;
      }
    }
    return found;
  };
}
