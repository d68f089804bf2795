import type { EventBus, ReceivedMessage } from '../../event-bus.port';
import { partitionFor } from '../../partitioner';
import { waitFor } from '../wait-for';
import { committedTotal } from './delivery-recorder';
import type { ContractContext } from './event-bus-harness';

async function collect(
  ctx: ContractContext,
  bus: EventBus,
  topic: string,
  groupId: string,
): Promise<ReceivedMessage[]> {
  const received: ReceivedMessage[] = [];
  const handle = await bus.subscribe({
    groupId,
    topics: [topic],
    maxAttempts: 1,
    backoff: ctx.timing.backoff,
    fromBeginning: true,
    handler: async (message) => {
      received.push(message);
    },
  });
  ctx.onCleanup(() => handle.stop());
  return received;
}

async function rejectionOf(promise: Promise<unknown>): Promise<{ code?: unknown; retriable?: unknown }> {
  try {
    await promise;
  } catch (error) {
    return error as { code?: unknown; retriable?: unknown };
  }
  throw new Error('expected a rejection');
}

export function topicsAndMessagesContract(context: () => ContractContext): void {
  describe('topics and messages', () => {
    it('a published message arrives with its key, value and headers unchanged', async () => {
      const ctx = context();
      const { bus, uniqueName } = ctx.harness;
      const topic = uniqueName('round-trip');
      await bus.ensureTopics([{ name: topic, partitions: ctx.timing.partitions }]);
      const value = {
        text: 'Zeichne einen Fuchs 🦊 — 画一只狐狸',
        n: 42.5,
        flag: false,
        none: null,
        list: [1, 'two', { three: 3 }],
        nested: { a: { b: [] } },
      };
      const headers = { eventId: '0b7c6f8e-3d7a-4a55-9a71-7f3f1c2b9d10', type: 'Probe', empty: '' };
      const received = await collect(ctx, bus, topic, uniqueName('round-trip-group'));
      const before = Date.now();
      await bus.publish(topic, [{ key: 'task-ü1', value, headers }]);

      await waitFor(() => received.length === 1, 'the message', ctx.timing.waitTimeoutMs);
      const [m] = received;
      expect(m).toMatchObject({
        topic,
        key: 'task-ü1',
        value,
        headers,
        offset: 0,
        partition: partitionFor('task-ü1', ctx.timing.partitions),
      });
      expect(m.timestamp).toBeGreaterThanOrEqual(before - 60_000);
    });

    it("each key lands on the partition Kafka's murmur2 partitioner picks, so keys map alike in both modes", async () => {
      const ctx = context();
      const { bus, uniqueName } = ctx.harness;
      const topic = uniqueName('partitioning');
      await bus.ensureTopics([{ name: topic, partitions: ctx.timing.partitions }]);
      const keys = Array.from({ length: 24 }, (_, i) => `task-${i}-${'x'.repeat(i % 5)}`);
      const received = await collect(ctx, bus, topic, uniqueName('partitioning-group'));
      await bus.publish(
        topic,
        [...keys, ...keys].map((key) => ({ key, value: { key } })),
      );

      await waitFor(() => received.length === keys.length * 2, 'every message', ctx.timing.waitTimeoutMs);
      for (const m of received) expect(m.partition).toBe(partitionFor(m.key, ctx.timing.partitions));
    });

    it('ensureTopics is idempotent and refuses another partition count with a typed error', async () => {
      const ctx = context();
      const { bus, uniqueName } = ctx.harness;
      const topic = uniqueName('ensure');
      await bus.ensureTopics([{ name: topic, partitions: 3 }]);
      await bus.ensureTopics([{ name: topic, partitions: 3 }]);
      expect(await bus.committedOffsets(uniqueName('nobody'), topic)).toHaveLength(3);
      expect(await rejectionOf(bus.ensureTopics([{ name: topic, partitions: 5 }]))).toMatchObject({
        code: 'BUS_TOPIC_CONFLICT',
        retriable: false,
      });
    });

    it('publishing or subscribing to a topic that was never created fails with a typed, non-retriable error', async () => {
      const ctx = context();
      const { bus, uniqueName } = ctx.harness;
      const topic = uniqueName('never-created');
      const expected = { code: 'BUS_UNKNOWN_TOPIC', retriable: false };
      expect(await rejectionOf(bus.publish(topic, [{ key: 'k', value: {} }]))).toMatchObject(expected);
      expect(
        await rejectionOf(
          bus.subscribe({
            groupId: uniqueName('g'),
            topics: [topic],
            maxAttempts: 1,
            backoff: ctx.timing.backoff,
            handler: async () => undefined,
          }),
        ),
      ).toMatchObject(expected);
    });

    it('an invalid message is refused with a typed error and nothing of its batch is written', async () => {
      const ctx = context();
      const { bus, uniqueName } = ctx.harness;
      const topic = uniqueName('invalid');
      await bus.ensureTopics([{ name: topic, partitions: ctx.timing.partitions }]);
      const notAnObject = [1, 2] as unknown as Record<string, unknown>;
      const expected = { code: 'BUS_INVALID_MESSAGE', retriable: false };
      expect(
        await rejectionOf(
          bus.publish(topic, [
            { key: 'ok', value: { fine: true } },
            { key: 'bad', value: notAnObject },
          ]),
        ),
      ).toMatchObject(expected);
      expect(await rejectionOf(bus.publish(topic, [{ key: '', value: {} }]))).toMatchObject(expected);
      expect(await rejectionOf(bus.publish(topic, [{ key: 'k', value: { at: new Date() } }]))).toMatchObject(expected);

      const groupId = uniqueName('invalid-group');
      const received = await collect(ctx, bus, topic, groupId);
      await bus.publish(topic, [{ key: 'sentinel', value: { sentinel: true } }]);
      await waitFor(
        async () => (await committedTotal(bus, groupId, topic)) === 1,
        'the sentinel committed',
        ctx.timing.waitTimeoutMs,
      );
      expect(received.map((m) => m.key)).toEqual(['sentinel']);
    });

    it('a group that never consumed has no committed offset on any partition', async () => {
      const ctx = context();
      const { bus, uniqueName } = ctx.harness;
      const topic = uniqueName('uncommitted');
      await bus.ensureTopics([{ name: topic, partitions: ctx.timing.partitions }]);
      await bus.publish(topic, [{ key: 'k', value: {} }]);
      expect(await bus.committedOffsets(uniqueName('idle-group'), topic)).toEqual(
        Array.from({ length: ctx.timing.partitions }, (_, partition) => ({ partition, offset: null })),
      );
    });
  });
}
