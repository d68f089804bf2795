import type { ReceivedMessage } from '../../event-bus.port';
import { EventRelay } from '../../relay/event-relay';
import { InMemoryEventStore } from '../in-memory-event-store';
import { waitFor } from '../wait-for';
import type { ContractContext } from './event-bus-harness';

export function relayedMessageContract(context: () => ContractContext): void {
  describe('relayed events', () => {
    it('go to one topic per stream category, keyed by stream id, carrying the envelope and trace headers', async () => {
      const ctx = context();
      const { bus, uniqueName } = ctx.harness;
      const prefix = `${uniqueName('relay-shape')}.`;
      const store = new InMemoryEventStore();
      const relay = new EventRelay({
        store,
        bus,
        topicPrefix: prefix,
        partitions: ctx.timing.partitions,
        idleIntervalMs: 10,
      });
      await relay.ensureTopics(['task', 'turn']);
      relay.start();
      ctx.onCleanup(() => relay.stop());
      const received: ReceivedMessage[] = [];
      const handle = await bus.subscribe({
        groupId: uniqueName('relay-shape-group'),
        topics: [`${prefix}task`, `${prefix}turn`],
        maxAttempts: 1,
        backoff: ctx.timing.backoff,
        fromBeginning: true,
        handler: async (message) => {
          received.push(message);
        },
      });
      ctx.onCleanup(() => handle.stop());
      const metadata = {
        correlationId: 'corr-1',
        workspaceId: 'ws1',
        actor: { kind: 'system' as const, component: 'contract' },
      };
      await store.append(
        'task-t1',
        [
          {
            eventId: 'e0000000-0000-4000-8000-000000000001',
            type: 'TaskProbed',
            data: { n: 1 },
            metadata: { ...metadata, causationId: null },
          },
        ],
        'no_stream',
      );
      await store.append(
        'turn-u1',
        [
          {
            eventId: 'e0000000-0000-4000-8000-000000000002',
            type: 'TurnProbed',
            data: { n: 2 },
            metadata: { ...metadata, causationId: 'cause-1' },
          },
        ],
        'no_stream',
      );
      await relay.drain();

      await waitFor(() => received.length === 2, 'both relayed events', ctx.timing.waitTimeoutMs);
      const [task, turn] = [...received].sort((x, y) => x.key.localeCompare(y.key));
      expect(task).toMatchObject({
        topic: `${prefix}task`,
        key: 'task-t1',
        headers: {
          eventId: 'e0000000-0000-4000-8000-000000000001',
          type: 'TaskProbed',
          workspaceId: 'ws1',
          correlationId: 'corr-1',
          streamId: 'task-t1',
          revision: '0',
        },
        value: {
          type: 'TaskProbed',
          data: { n: 1 },
          metadata: {
            eventId: 'e0000000-0000-4000-8000-000000000001',
            streamId: 'task-t1',
            revision: 0,
            causationId: null,
          },
        },
      });
      expect(task.headers).not.toHaveProperty('causationId');
      expect(turn).toMatchObject({
        topic: `${prefix}turn`,
        key: 'turn-u1',
        headers: { causationId: 'cause-1', type: 'TurnProbed' },
      });
    });
  });
}
