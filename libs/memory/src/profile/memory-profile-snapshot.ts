import type { BlobStore } from '@lomo/blobs';
import { currentProfile } from '@lomo/domain';
import type { ProfileSnapshot, ProfileView } from '@lomo/runtime';
import type { MemoryStreamCache } from './memory-stream-cache';

/**
 * The profile the stable prefix shows (libs/runtime's ProfileSnapshot port): the person's current
 * profile version with its text from the BlobStore. A forgetting publishes a new version and
 * deletes the old bodies, so an old snapshot is never shown again: a body that is gone reads as
 * no profile rather than as anything it said.
 */
export class MemoryProfileSnapshot implements ProfileSnapshot {
  private readonly texts = new Map<string, string>();

  constructor(private readonly deps: { memory: MemoryStreamCache; blobs: Pick<BlobStore, 'get'> }) {}

  async current(workspaceId: string, userId: string | null): Promise<ProfileView | null> {
    if (userId === null) return null;
    const { state } = await this.deps.memory.state(workspaceId, userId);
    const profile = currentProfile(state);
    if (profile === undefined || profile.text === null) return null;
    const text = await this.text(profile.text.hash);
    return text === undefined ? null : { version: profile.version, text };
  }

  private async text(hash: string): Promise<string | undefined> {
    const known = this.texts.get(hash);
    if (known !== undefined) return known;
    const body = await this.deps.blobs.get(hash);
    if (body === undefined) return undefined;
    const text = body.toString('utf8');
    if (this.texts.size > 1_000) this.texts.clear();
    this.texts.set(hash, text);
    return text;
  }
}
