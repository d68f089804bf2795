import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { streams, type WriteMetadata } from '@lomo/contracts';
import { SqliteEventStore } from '@lomo/eventstore';
import { SequentialIds } from '@lomo/testing';
import { AggregateStream } from './aggregate-stream';

type Counted = { type: 'ArtifactReferenced'; data: unknown };
const counting = { initialState: () => 0, evolve: (n: number) => n + 1 };
const metadata: WriteMetadata = {
  correlationId: 'c',
  causationId: null,
  workspaceId: 'ws1',
  actor: { kind: 'system', component: 'test' },
};
const referenced = (taskId: string): Counted => ({
  type: 'ArtifactReferenced',
  data: { taskId, by: { kind: 'person', userId: 'u1' } },
});

describe('AggregateStream shared by concurrent callers', () => {
  it('overlapping catch-ups (both read before either applied) fold each event once', async () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'lomo-aggregate-'));
    const store = new SqliteEventStore({ filename: path.join(dir, 'events.sqlite') });
    try {
      const id = streams.artifact('0b9c6f3e-8a51-4d7e-9a35-2f7c1d4e5a60');
      const writer = new AggregateStream<Counted, number>(id, counting, ['ArtifactReferenced']);
      const reader = new AggregateStream<Counted, number>(id, counting, ['ArtifactReferenced']);
      await writer.append(store, [referenced('3b9c6f3e-8a51-4d7e-9a35-2f7c1d4e5a63')], metadata, new SequentialIds());
      await Promise.all([reader.catchUp(store), reader.catchUp(store), reader.catchUp(store)]);
      expect({ state: reader.state, revision: reader.revision }).toEqual({ state: 1, revision: 0 });
    } finally {
      await store.close();
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
