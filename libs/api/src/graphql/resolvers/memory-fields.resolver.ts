import { Inject } from '@nestjs/common';
import { Parent, ResolveField, Resolver } from '@nestjs/graphql';
import { BLOB_STORE, type BlobStore } from '@lomo/blobs';
import { parseMemoryText } from '@lomo/memory';
import { MEMORY_READ_MODEL, type MemoryReadModel } from '@lomo/read-models';
import { MemoryEvidenceLink, MemoryVersion, Profile } from '../types/memory.types';

/** A text blob as read: null when it is gone (purged, or deleted by a forgetting). */
async function readText(blobs: BlobStore, ref: { hash: string } | null): Promise<string | null> {
  if (ref === null) return null;
  const body = await blobs.get(ref.hash);
  return body === undefined ? null : body.toString('utf8');
}

/**
 * A version's text lives in the BlobStore (DESIGN.md §4 "Deletable content"), read only when
 * asked for; a purged version reads as null. Who may read it was decided by the query that
 * reached the version (`memory`, `memories`), the only ways to one.
 */
@Resolver(() => MemoryVersion)
export class MemoryVersionFieldsResolver {
  constructor(
    @Inject(BLOB_STORE) private readonly blobs: BlobStore,
    @Inject(MEMORY_READ_MODEL) private readonly memories: MemoryReadModel,
  ) {}

  @ResolveField(() => String, {
    nullable: true,
    description: 'The claim, as the agent reads it; null once purged (`purged` is then true).',
  })
  async text(@Parent() version: MemoryVersion): Promise<string | null> {
    if (version.purged) return null;
    const text = await readText(this.blobs, version.textRef);
    return text === null ? null : parseMemoryText(text).claim;
  }

  @ResolveField(() => String, {
    nullable: true,
    description: 'The value the claim is identified by (“blue”); null once purged.',
  })
  async value(@Parent() version: MemoryVersion): Promise<string | null> {
    if (version.purged) return null;
    const text = await readText(this.blobs, version.textRef);
    return text === null ? null : parseMemoryText(text).value;
  }

  @ResolveField(() => [MemoryEvidenceLink], {
    description: 'The evidence it rests on, with its role and where it came from (no text).',
  })
  async evidence(@Parent() version: MemoryVersion): Promise<MemoryEvidenceLink[]> {
    const found = await this.memories.evidence(
      version.owner,
      version.links.map((l) => l.evidenceId),
    );
    const byId = new Map(found.map((d) => [d.entityId, d.evidence]));
    return version.links.map((link) => {
      const e = byId.get(link.evidenceId) ?? null;
      return {
        evidenceId: link.evidenceId,
        role: link.role,
        sourceKind: e?.sourceKind ?? null,
        messageId: e?.messageId ?? null,
        taskId: e?.taskId ?? null,
        turnId: e?.turnId ?? null,
        callId: e?.callId ?? null,
        tool: e?.tool ?? null,
        at: e?.at ?? null,
        revoked: e?.revokedBy != null,
      };
    });
  }
}

@Resolver(() => Profile)
export class ProfileFieldsResolver {
  constructor(@Inject(BLOB_STORE) private readonly blobs: BlobStore) {}

  @ResolveField(() => String, { nullable: true, description: 'The text of the version in force.' })
  text(@Parent() profile: Profile): Promise<string | null> {
    return readText(this.blobs, profile.textRef);
  }
}
