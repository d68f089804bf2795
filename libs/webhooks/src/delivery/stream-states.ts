import type { DocumentStore, StoredDocument } from '@lomo/read-models';
import { Collections, streamDocumentId, type StreamDocument } from '../webhooks/webhook-documents';
import { isIdle } from './stream-progress';

const PAGE = 500;

/**
 * The webhook's streams with work pending or blocked, in memory and in the DocumentStore. Memory
 * is the truth while the runner holds the lease; `persist` writes what memory holds when the
 * write runs (one write at a time per stream, so the last one wins), and deletes idle streams.
 * Insertion order is the round-robin order of the scheduler.
 */
export class StreamStates {
  private readonly states = new Map<string, StreamDocument>();
  private readonly writes = new Map<string, Promise<void>>();

  constructor(
    private readonly documents: DocumentStore,
    private readonly webhookId: string,
  ) {}

  async load(): Promise<void> {
    let after: string | undefined;
    do {
      const page = await this.documents.find<StreamDocument>(Collections.streams, {
        filter: { webhookId: this.webhookId },
        limit: PAGE,
        after,
      });
      for (const doc of page.items) this.states.set(doc.streamId, strip(doc));
      after = page.hasMore ? page.endCursor : undefined;
    } while (after !== undefined);
  }

  get(streamId: string): StreamDocument | undefined {
    return this.states.get(streamId);
  }

  all(): IterableIterator<StreamDocument> {
    return this.states.values();
  }

  get size(): number {
    return this.states.size;
  }

  /** Stored states of streams not in memory (idle ones have none). */
  async fetchStored(streamIds: readonly string[]): Promise<Map<string, StreamDocument>> {
    const missing = [...new Set(streamIds)].filter((id) => !this.states.has(id));
    const found = new Map<string, StreamDocument>();
    if (missing.length === 0) return found;
    const docs = await this.documents.getMany<StreamDocument>(
      Collections.streams,
      missing.map((id) => streamDocumentId(this.webhookId, id)),
    );
    for (const doc of docs) found.set(doc.streamId, strip(doc));
    return found;
  }

  set(state: StreamDocument): void {
    this.states.set(state.streamId, state);
  }

  /** Moves the stream to the back of the round-robin order. */
  requeue(streamId: string): void {
    const state = this.states.get(streamId);
    if (state === undefined) return;
    this.states.delete(streamId);
    this.states.set(streamId, state);
  }

  persist(streamId: string): Promise<void> {
    const state = this.states.get(streamId);
    if (state !== undefined && isIdle(state)) this.states.delete(streamId);
    const previous = this.writes.get(streamId) ?? Promise.resolve();
    const next = previous.catch(() => undefined).then(() => this.write(streamId));
    this.writes.set(streamId, next);
    void next
      .finally(() => {
        if (this.writes.get(streamId) === next) this.writes.delete(streamId);
      })
      .catch(() => undefined);
    return next;
  }

  async flushAll(): Promise<void> {
    await Promise.allSettled([...this.writes.values()]);
  }

  private async write(streamId: string): Promise<void> {
    const state = this.states.get(streamId);
    if (state === undefined) {
      await this.documents.delete(Collections.streams, streamDocumentId(this.webhookId, streamId));
    } else {
      await this.documents.upsert(Collections.streams, state);
    }
  }
}

function strip(doc: StoredDocument<StreamDocument>): StreamDocument {
  const { _version: _ignored, ...state } = doc;
  return state;
}
