import { randomUUID } from 'node:crypto';
import type { EventEnvelope, NewEvent } from '@lomo/contracts';
import { InMemoryEventStore } from '@lomo/bus/testing';
import { silentLogger, type Logger } from '@lomo/observability';
import { OPERATOR_READ_MESSAGE, type Caller, type TokenKind } from '@lomo/auth';
import { EventSelection } from '@lomo/webhooks';
import type { ConsistencyGate } from '../consistency/consistency-gate';
import { encodeConsistencyToken } from '../consistency/consistency-token';
import { ReadAfterWrite } from '../consistency/read-after-write';
import { EventsResolver } from '../graphql/resolvers/events.resolver';
import { EventFeeds } from '../subscriptions/feed/event-feeds';
import { feedFilter } from '../subscriptions/feed/feed-filter';
import { StoreTail } from '../subscriptions/feed/store-tail';
import { subscriptionSettings } from '../subscriptions/subscription-settings';
import { StreamOwnership } from './stream-ownership';

/**
 * The table test of the visibility policy (libs/auth/src/visibility-policy.ts): every read path ×
 * token kind × stream category. The expectations are written out here, not computed with the
 * policy, so a change to the policy or a path that skips it fails a row.
 */
type Who = 'owner' | 'other person' | 'integration' | 'operator';
const callers: Record<Who, Caller> = {
  owner: { tokenId: 't-u1', tokenName: 'u1', workspaceId: 'ws1', userId: 'u1', kind: 'person' },
  'other person': { tokenId: 't-u2', tokenName: 'u2', workspaceId: 'ws1', userId: 'u2', kind: 'person' },
  integration: { tokenId: 't-ci', tokenName: 'ci', workspaceId: 'ws1', userId: 'ci', kind: 'integration' },
  // An operator's token belongs to a workspace of its own and reads ws1 across the boundary.
  operator: {
    tokenId: 't-ops',
    tokenName: 'ops',
    workspaceId: 'support',
    userId: 'sam',
    kind: 'operator' as TokenKind,
  },
};

/** One stream per category of ws1, two event types each: [stream, types, visible types per caller]. */
const table: Array<{ category: string; streamId: string; types: [string, string]; visible: Record<Who, string[]> }> = [
  {
    category: 'main',
    streamId: 'main-ws1.u1',
    types: ['UserMessageReceived', 'RoutingDecided'],
    visible: {
      owner: ['UserMessageReceived', 'RoutingDecided'],
      'other person': [],
      integration: [],
      operator: ['UserMessageReceived', 'RoutingDecided'],
    },
  },
  {
    category: 'receipt',
    streamId: 'receipt-ws1.u1.9a9a9a9a-0000-4000-8000-000000000001',
    types: ['MessageReceiptReserved', 'MessageReceiptReserved'],
    visible: {
      owner: ['MessageReceiptReserved', 'MessageReceiptReserved'],
      'other person': [],
      integration: [],
      operator: ['MessageReceiptReserved', 'MessageReceiptReserved'],
    },
  },
  {
    category: 'memory',
    streamId: 'memory-ws1.u1',
    types: ['MemoryEvidenceRecorded', 'MemoryVersionCreated'],
    visible: {
      owner: ['MemoryEvidenceRecorded', 'MemoryVersionCreated'],
      'other person': [],
      integration: [],
      operator: ['MemoryEvidenceRecorded', 'MemoryVersionCreated'],
    },
  },
  {
    category: 'task',
    streamId: 'task-t1',
    types: ['TaskCreated', 'BriefUpdated'],
    visible: {
      owner: ['TaskCreated', 'BriefUpdated'],
      'other person': ['TaskCreated', 'BriefUpdated'],
      integration: ['TaskCreated'],
      operator: ['TaskCreated', 'BriefUpdated'],
    },
  },
  {
    category: 'turn',
    streamId: 'turn-r1',
    types: ['TurnStarted', 'ModelStepCommitted'],
    visible: {
      owner: ['TurnStarted', 'ModelStepCommitted'],
      'other person': ['TurnStarted', 'ModelStepCommitted'],
      integration: ['TurnStarted'],
      operator: ['TurnStarted', 'ModelStepCommitted'],
    },
  },
  {
    category: 'artifact',
    streamId: 'artifact-a1',
    types: ['ArtifactCreated', 'ArtifactRevised'],
    visible: {
      owner: ['ArtifactCreated', 'ArtifactRevised'],
      'other person': ['ArtifactCreated', 'ArtifactRevised'],
      integration: [],
      operator: ['ArtifactCreated', 'ArtifactRevised'],
    },
  },
  {
    category: 'generation',
    streamId: 'generation-g1',
    types: ['GenerationRequested', 'GenerationCompleted'],
    visible: {
      owner: ['GenerationRequested', 'GenerationCompleted'],
      'other person': ['GenerationRequested', 'GenerationCompleted'],
      integration: [],
      operator: ['GenerationRequested', 'GenerationCompleted'],
    },
  },
  {
    category: 'account',
    streamId: 'account-ws1',
    types: ['QuoteIssued', 'ChargeRecorded'],
    visible: {
      owner: ['QuoteIssued', 'ChargeRecorded'],
      'other person': ['QuoteIssued', 'ChargeRecorded'],
      integration: [],
      operator: ['QuoteIssued', 'ChargeRecorded'],
    },
  },
];

const newEvent = (type: string, workspaceId = 'ws1'): NewEvent => ({
  eventId: randomUUID(),
  type,
  data: { text: `content of ${type}` },
  metadata: {
    correlationId: randomUUID(),
    causationId: null,
    workspaceId,
    actor: { kind: 'system', component: 'test' },
  },
});

function recordingLogger() {
  const lines: Array<{ context: Record<string, unknown>; message: string }> = [];
  const logger: Logger = {
    ...silentLogger,
    info: (context, message) => void lines.push({ context, message }),
    child: () => logger,
  };
  return { logger, lines };
}

const rows = table.flatMap((row) => (Object.keys(callers) as Who[]).map((who) => ({ ...row, who })));

describe('visibility: every read path × token kind × stream category', () => {
  let store: InMemoryEventStore;
  let tail: StoreTail;
  const gateCalls: unknown[] = [];
  const gate: ConsistencyGate = { waitFor: async (pairs) => void gateCalls.push(pairs) };

  beforeEach(async () => {
    store = new InMemoryEventStore();
    tail = new StoreTail(store, silentLogger);
    gateCalls.length = 0;
    for (const row of table)
      await store.append(
        row.streamId,
        row.types.map((t) => newEvent(t)),
        'no_stream',
      );
    // Another workspace's task: nobody but the operator naming ws2 reads it.
    await store.append('task-t2', [newEvent('TaskCreated', 'ws2')], 'no_stream');
  });
  afterEach(() => tail.onApplicationShutdown());

  const feeds = (logger: Logger = silentLogger) =>
    new EventFeeds(
      store,
      tail,
      { ...subscriptionSettings({ maxBodyBytes: 100_000, maxSubscriptionsPerToken: 20 }), feedIdlePollMs: 20 },
      logger,
    );

  /**
   * Everything a feed delivers until it has been quiet for a moment. The `next()` still waiting
   * when it goes quiet is kept for the following drain, so no event is taken and dropped.
   */
  function drainer(outbox: Awaited<ReturnType<EventFeeds['open']>>) {
    let pending: Promise<IteratorResult<{ event: { type: string } }>> | undefined;
    return async (quietMs = 150): Promise<string[]> => {
      const types: string[] = [];
      for (;;) {
        pending ??= outbox.next();
        const next = await Promise.race([
          pending,
          new Promise<'quiet'>((resolve) => setTimeout(() => resolve('quiet'), quietMs)),
        ]);
        if (next === 'quiet') return types;
        pending = undefined;
        if (next.done) return types;
        types.push(next.value.event.type);
      }
    };
  }

  it.each(rows)('events($streamId) as $who', async ({ streamId, who, visible }) => {
    const resolver = new EventsResolver(store, new StreamOwnership(store), new ReadAfterWrite(gate), silentLogger);
    const page = await resolver.events(callers[who], { streamId, fromRevision: 0, first: 20 });
    expect(page.edges.map((e) => e.node.type)).toEqual(visible[who]);
  });

  it.each(rows)(
    'eventFeed(categories: [$category]) catch-up then live as $who',
    async ({ category, streamId, types, who, visible }) => {
      const outbox = await feeds().open(
        callers[who],
        feedFilter({ categories: [category] }),
        undefined,
        () => undefined,
        'ws1',
      );
      const drain = drainer(outbox);
      try {
        expect(await drain()).toEqual(visible[who]);
        // Live: the same loop; a new event of the stream passes or not as the catch-up did.
        await store.append(streamId, [newEvent(types[0])], 'any');
        expect(await drain()).toEqual(visible[who].includes(types[0]) ? [types[0]] : []);
      } finally {
        void outbox.return();
      }
    },
  );

  it.each(rows)('webhook selecting [$category] registered by $who', ({ category, streamId, types, who, visible }) => {
    const caller = callers[who];
    // A webhook lives in one workspace: the operator's here is registered in ws1 (support work).
    const selection = new EventSelection('ws1', [category], {
      tokenId: caller.tokenId,
      userId: caller.userId,
      kind: caller.kind,
    });
    const delivered = types.filter((type) =>
      selection.matches({ type, data: {}, metadata: { streamId, workspaceId: 'ws1' } } as unknown as EventEnvelope),
    );
    expect(delivered).toEqual(visible[who]);
  });

  it.each(rows)('consistentWith naming $streamId as $who', async ({ category, streamId, who }) => {
    const token = encodeConsistencyToken([{ streamId, revision: 0 }]);
    const refused =
      (category === 'main' || category === 'memory' || category === 'receipt') &&
      (who === 'other person' || who === 'integration');
    const waiting = new ReadAfterWrite(gate).await(callers[who], token);
    if (refused) {
      await expect(waiting).rejects.toMatchObject({ code: 'INVALID_CONSISTENCY_TOKEN' });
      expect(gateCalls).toEqual([]);
    } else {
      await expect(waiting).resolves.toBeUndefined();
      expect(gateCalls).toHaveLength(1);
    }
  });

  it('refuses a private stream of someone else in a consistency token the same whether it exists or not', async () => {
    const other = callers['other person'];
    const exists = new ReadAfterWrite(gate).await(
      other,
      encodeConsistencyToken([{ streamId: 'main-ws1.u1', revision: 0 }]),
    );
    const absent = new ReadAfterWrite(gate).await(
      other,
      encodeConsistencyToken([{ streamId: 'main-ws1.nobody', revision: 0 }]),
    );
    const [a, b] = await Promise.allSettled([exists, absent]);
    expect(a).toEqual(b);
    expect(a.status).toBe('rejected');
  });

  it('logs every operator read with the token, the workspace read and the path; other kinds leave no such line', async () => {
    const { logger, lines } = recordingLogger();
    const resolver = new EventsResolver(store, new StreamOwnership(store), new ReadAfterWrite(gate), logger);
    await resolver.events(callers.operator, { streamId: 'main-ws1.u1', fromRevision: 0, first: 20 });
    await resolver.events(callers.owner, { streamId: 'main-ws1.u1', fromRevision: 0, first: 20 });
    const outbox = await feeds(logger).open(callers.operator, feedFilter(undefined), undefined, () => undefined, 'ws2');
    expect(await drainer(outbox)()).toEqual(['TaskCreated']);
    void outbox.return();
    const audit = lines.filter((l) => l.message === OPERATOR_READ_MESSAGE);
    expect(audit.map((l) => l.context)).toEqual([
      expect.objectContaining({ tokenId: 't-ops', workspaceId: 'ws1', path: 'events', streamId: 'main-ws1.u1' }),
      expect.objectContaining({ tokenId: 't-ops', workspaceId: 'ws2', path: 'eventFeed' }),
    ]);
  });
});
