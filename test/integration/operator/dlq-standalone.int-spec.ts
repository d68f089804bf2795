import { randomUUID } from 'node:crypto';
import { rmSync, writeFileSync } from 'node:fs';
import * as path from 'node:path';
import type { Caller } from '@lomo/auth';
import { InProcessEventBus, SqliteRelayLeaseStore } from '@lomo/bus';
import { systemClock } from '@lomo/contracts';
import { SqliteEventStore } from '@lomo/eventstore';
import { listDeadLetters, redriveDeadLetters, relayStatus } from '@lomo/operator';
import { sendAndSettle } from '../api/support/queries';
import { eventually, startStandaloneApi, type RunningApi } from '../api/support/standalone-api';

// The standalone runs; this test process stands for the operator's `lomo` process, opening the
// same bus and event-store files. Memory extraction fails while its model is down and is
// dead-lettered; the operator lists it, sends it back once the model is up, and the standalone's
// memory group forms the memory. The relay's status names the live lease and no lag.

const MEMORIES = `query { memories(scope: ALL) { edges { node { subject versions { version } } } } }`;
const operator: Caller = { tokenId: 'token-op', tokenName: 'ops', workspaceId: 'ops', userId: 'sam', kind: 'operator' };

describe('dead letters of the running standalone, redriven from another process', () => {
  let api: RunningApi;

  beforeAll(async () => {
    api = await startStandaloneApi(
      { LOMO_BUS_MAX_ATTEMPTS: '2' },
      { entry: 'test/integration/api/support/standalone-with-extractor-down.ts', keepDataDir: true },
    );
  }, 120_000);
  afterAll(async () => {
    await api?.stop();
    if (api !== undefined) rmSync(api.dataDir, { recursive: true, force: true });
  });

  it('lists the memory dead letter, redrives it to the memory group, and the memory forms once', async () => {
    const flag = path.join(api.dataDir, 'extractor-down');
    writeFileSync(flag, 'down');
    await sendAndSettle(
      api,
      api.devToken,
      "Design our brand kit for the spring launch. Our brand's main colour is blue.",
    );

    const bus = InProcessEventBus.open({ filename: path.join(api.dataDir, 'bus.sqlite') });
    const events = new SqliteEventStore({ filename: path.join(api.dataDir, 'events.sqlite') });
    const leases = SqliteRelayLeaseStore.open({ filename: path.join(api.dataDir, 'bus.sqlite') });
    try {
      const sources = { bus, events };
      const memoryLetters = () => listDeadLetters(sources, operator, { source: 'memory' });
      await eventually(memoryLetters, (rows) => rows.length > 0, 'a memory dead letter', 30_000);
      const [letter] = await memoryLetters();
      expect(letter).toMatchObject({
        group: 'memory',
        eventType: 'MessageDeliveredToInbox',
        error: { code: 'MODEL_UNAVAILABLE' },
        redriven: false,
      });

      rmSync(flag);
      const result = await redriveDeadLetters(
        sources,
        operator,
        { source: 'memory', confirm: true },
        { clock: systemClock, ids: { uuid: () => randomUUID() } },
      );
      expect(result.redriven.map((r) => r.id)).toContain(letter.id);
      expect(result.failed).toEqual([]);

      const formed = await eventually(
        () =>
          api.gql<{ memories: { edges: Array<{ node: { subject: string; versions: unknown[] } }> } }>(
            api.devToken,
            MEMORIES,
          ),
        (r) => (r.data?.memories.edges.length ?? 0) > 0,
        'the memory formed after the redrive',
      );
      expect(formed.data!.memories.edges.map((e) => [e.node.subject, e.node.versions.length])).toEqual([
        ['brand.colour.main', 1],
      ]);
      expect(
        (await listDeadLetters(sources, operator, { state: 'open', source: 'memory' })).map((r) => r.id),
      ).not.toContain(letter.id);

      // The embedded projector reads the store, not the bus: its group never commits here.
      const status = await eventually(
        () => relayStatus({ events, bus, lease: leases, clock: systemClock }, operator),
        (s) => s.lagEvents === 0 && s.groups.every((g) => g.groupId === 'projector' || g.lag === 0),
        'the relay and the groups caught up',
      );
      expect(status.lease).toMatchObject({ live: true });
      expect(status.lease?.holder).toEqual(expect.any(String));
      expect(status.groups.find((g) => g.groupId === 'memory')?.topics.length).toBeGreaterThan(0);
    } finally {
      leases.close();
      await bus.close();
      await events.close();
    }
  }, 120_000);
});
