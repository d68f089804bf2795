import type { BlobStore } from '@lomo/blobs';
import { streams } from '@lomo/contracts';
import type { MemoryState, StepContext } from '@lomo/domain';
import type { EventStore } from '@lomo/eventstore';
import {
  FIXED_PROFILE,
  type MemoryRecall,
  type ProfileSnapshot,
  type ProfileView,
  type RecalledMemory,
} from '@lomo/runtime';
import { foldEvents, foldForCategory } from '../inspect/stream-folds';

/**
 * A person's memory as the replay shows it to a step: what the step recorded it was shown (its
 * profile version, the memory version ids it recalled), read back from the person's memory
 * stream as it stands now, so a version or profile purged since is never shown again. No index
 * and no embedder are asked; the real store is only read.
 */
export class RecordedMemory {
  private readonly people = new Map<string, Promise<PersonMemory>>();

  constructor(
    private readonly events: Pick<EventStore, 'readStream'>,
    private readonly blobs: Pick<BlobStore, 'get'>,
  ) {}

  /** The profile the step's prefix showed, by its recorded version. */
  profile(context: StepContext | null): ProfileSnapshot {
    const version = context === null ? FIXED_PROFILE.version : context.prefix.profileVersion;
    return { current: async (workspaceId, userId) => (await this.of(workspaceId, userId)).profileAt(version) };
  }

  /** The memories the step recalled, by their recorded version ids; undefined when it recalled none. */
  recall(context: StepContext | null): MemoryRecall | undefined {
    const memory = context?.memory;
    if (memory === undefined || memory.status !== 'recalled' || memory.versionIds.length === 0) return undefined;
    const ids = [...memory.versionIds];
    return { recall: async (query) => (await this.of(query.workspaceId, query.userId)).versions(ids) };
  }

  private of(workspaceId: string, userId: string | null): Promise<PersonMemory> {
    if (userId === null) return Promise.resolve(new PersonMemory(undefined, new Map(), this.blobs));
    const key = `${workspaceId}.${userId}`;
    let known = this.people.get(key);
    if (known === undefined) {
      known = PersonMemory.read(this.events, this.blobs, workspaceId, userId);
      this.people.set(key, known);
    }
    return known;
  }
}

class PersonMemory {
  constructor(
    private readonly state: MemoryState | undefined,
    /** When each episode summary was written (the index's `validFrom` for it). */
    private readonly summaryTimes: ReadonlyMap<string, string>,
    private readonly blobs: Pick<BlobStore, 'get'>,
  ) {}

  static async read(
    events: Pick<EventStore, 'readStream'>,
    blobs: Pick<BlobStore, 'get'>,
    workspaceId: string,
    userId: string,
  ): Promise<PersonMemory> {
    const stored = await events.readStream(streams.memory(workspaceId, userId));
    if (stored.length === 0) return new PersonMemory(undefined, new Map(), blobs);
    const times = new Map<string, string>();
    for (const e of stored) {
      const summaryId = (e.data as { summaryId?: unknown } | null)?.summaryId;
      if (typeof summaryId === 'string' && !times.has(summaryId)) times.set(summaryId, e.metadata.occurredAt);
    }
    return new PersonMemory(foldEvents(foldForCategory('memory')!, stored) as MemoryState, times, blobs);
  }

  async profileAt(version: number | null): Promise<ProfileView | null> {
    if (version === null) return null;
    const profiles = this.state?.profiles ?? [];
    const kept = profiles.find((p) => p.version === version);
    // No memory profiles at all: the runtime's fixed one (a worker without memory) if that version.
    if (kept === undefined) return profiles.length === 0 && version === FIXED_PROFILE.version ? FIXED_PROFILE : null;
    const text = kept.text === null ? undefined : await this.text(kept.text.hash);
    return text === undefined ? null : { version, text };
  }

  async versions(ids: readonly string[]): Promise<RecalledMemory[]> {
    const out: RecalledMemory[] = [];
    for (const id of ids) {
      const version = this.state?.versions[id];
      if (version !== undefined) {
        if (version.status === 'purged' || version.text === null) continue;
        const text = await this.text(version.text.hash);
        if (text === undefined) continue;
        out.push({
          memoryId: version.memoryId,
          versionId: version.versionId,
          subject: version.subject,
          text,
          origin: version.origin,
          scope: version.scope.kind,
          validFrom: version.validFrom,
          validTo: version.validTo,
          score: 0,
        });
        continue;
      }
      const summary = this.state?.summaries[id];
      if (summary === undefined || summary.status !== 'current' || summary.text === null) continue;
      const text = await this.text(summary.text.hash);
      if (text === undefined) continue;
      out.push({
        memoryId: id,
        versionId: id,
        subject: 'episode.summary',
        text,
        origin: 'inferred',
        scope: 'task',
        validFrom: this.summaryTimes.get(id) ?? '',
        validTo: null,
        score: 0,
      });
    }
    return out;
  }

  private async text(hash: string): Promise<string | undefined> {
    return (await this.blobs.get(hash))?.toString('utf8');
  }
}
