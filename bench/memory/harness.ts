import { InMemoryBlobStore } from '@lomo/blobs/testing';
import type { Clock } from '@lomo/contracts';
import { initialMemoryState, type MemoryState, type MemoryVersionState } from '@lomo/domain';
import type { EmbeddingProvider } from '@lomo/llm';
import { IndexedMemoryRecall, MemoryIndexCatalog, MemoryIndexer, type IndexedMemoryRecallOptions } from '@lomo/memory';
import type { SearchIndex } from '@lomo/routing';
import type { BenchVersion } from './generator';

export const BENCH_NOW = new Date('2026-06-01T00:00:00Z');
export const WORKSPACE = 'ws-bench';

export const emptyState = (): MemoryState => initialMemoryState();

/** Stores the texts as blobs, folds the versions into one state per person and indexes them. */
export async function buildRecall(index: SearchIndex, embedder: EmbeddingProvider, versions: readonly BenchVersion[]) {
  const blobs = new InMemoryBlobStore();
  const catalog = new MemoryIndexCatalog();
  const clock: Clock = { now: () => BENCH_NOW };
  const indexer = new MemoryIndexer({ index, embedder, blobs, catalog, clock, batchSize: 1024 });
  const states = new Map<string, MemoryState & { versions: Record<string, MemoryVersionState> }>();
  for (const v of versions) {
    v.state.text = await blobs.put(v.text, 'text/plain; charset=utf-8');
    let state = states.get(v.userId);
    if (!state) states.set(v.userId, (state = emptyState() as never));
    state!.versions[v.state.versionId] = v.state;
  }
  for (const [userId, state] of states) await indexer.syncPerson({ workspaceId: WORKSPACE, userId }, state);
  const recallWith = (options: IndexedMemoryRecallOptions = {}) =>
    new IndexedMemoryRecall({ index, embedder, blobs, catalog, clock, options });
  return { recall: recallWith(), recallWith, indexer, blobs, catalog };
}
