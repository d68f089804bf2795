import type { EventBus, ReceivedMessage, SubscribeOptions } from '../../event-bus.port';
import { waitFor } from '../wait-for';
import { committedTotal } from './delivery-recorder';
import type { ContractContext } from './event-bus-harness';

async function topicWithPartitions(ctx: ContractContext, base: string): Promise<string> {
  const topic = ctx.harness.uniqueName(base);
  await ctx.harness.bus.ensureTopics([{ name: topic, partitions: ctx.timing.partitions }]);
  return topic;
}

async function subscribe(
  ctx: ContractContext,
  bus: EventBus,
  options: Omit<SubscribeOptions, 'backoff' | 'maxAttempts'> & { maxAttempts?: number },
) {
  const handle = await bus.subscribe({ maxAttempts: 3, backoff: ctx.timing.backoff, ...options });
  ctx.onCleanup(() => handle.stop());
  return handle;
}

export function consumerLifecycleContract(context: () => ContractContext): void {
  describe('consumer lifecycle', () => {
    it('stop waits for the handler in flight and commits what it finished', async () => {
      const ctx = context();
      const { bus, uniqueName } = ctx.harness;
      const topic = await topicWithPartitions(ctx, 'stop-waits');
      const groupId = uniqueName('stop-waits-group');
      let release: () => void = () => undefined;
      const gate = new Promise<void>((resolve) => (release = resolve));
      let started = false;
      let finished = false;
      const handle = await subscribe(ctx, bus, {
        groupId,
        topics: [topic],
        fromBeginning: true,
        handler: async () => {
          started = true;
          await gate;
          finished = true;
        },
      });
      await bus.publish(topic, [{ key: 'k', value: {} }]);
      await waitFor(() => started, 'the handler to start', ctx.timing.waitTimeoutMs);

      let stopped = false;
      const stopping = handle.stop().then(() => (stopped = true));
      await new Promise((resolve) => setTimeout(resolve, 50));
      expect(stopped).toBe(false);
      release();
      await stopping;
      expect(finished).toBe(true);
      expect(await committedTotal(bus, groupId, topic)).toBe(1);
    });

    it('a handler cut short by stop is neither retried nor dead-lettered, and its message comes again after a restart', async () => {
      const ctx = context();
      const { bus, uniqueName } = ctx.harness;
      const topic = await topicWithPartitions(ctx, 'cut-short');
      const groupId = uniqueName('cut-short-group');
      const attempts: number[] = [];
      const first = await subscribe(ctx, bus, {
        groupId,
        topics: [topic],
        fromBeginning: true,
        handler: async (_message, { attempt, signal }) => {
          attempts.push(attempt);
          await new Promise<void>((resolve) => signal.addEventListener('abort', () => resolve(), { once: true }));
          throw new Error('interrupted by the stop');
        },
      });
      await bus.publish(topic, [{ key: 'k', value: { n: 1 } }]);
      await waitFor(() => attempts.length === 1, 'the first delivery', ctx.timing.waitTimeoutMs);
      await first.stop();
      expect(attempts).toEqual([1]);
      expect(await bus.readDeadLetters(groupId)).toEqual([]);
      expect(await committedTotal(bus, groupId, topic)).toBe(0);

      const again: ReceivedMessage[] = [];
      await subscribe(ctx, bus, {
        groupId,
        topics: [topic],
        fromBeginning: true,
        handler: async (m) => void again.push(m),
      });
      await waitFor(() => again.length === 1, 'the redelivery', ctx.timing.waitTimeoutMs);
      expect(again[0].value).toEqual({ n: 1 });
    });

    it('a new group that does not start from the beginning sees only messages published after it joined', async () => {
      const ctx = context();
      const { bus, uniqueName } = ctx.harness;
      const topic = await topicWithPartitions(ctx, 'from-end');
      await bus.publish(topic, [{ key: 'k', value: { when: 'before' } }]);
      const received: ReceivedMessage[] = [];
      const handle = await subscribe(ctx, bus, {
        groupId: uniqueName('from-end-group'),
        topics: [topic],
        handler: async (m) => void received.push(m),
      });
      await waitFor(
        () => handle.assignment().length === ctx.timing.partitions,
        'the assignment',
        ctx.timing.waitTimeoutMs,
      );
      await bus.publish(topic, [{ key: 'k', value: { when: 'after' } }]);

      await waitFor(() => received.length >= 1, 'the later message', ctx.timing.waitTimeoutMs);
      expect(received.map((m) => m.value)).toEqual([{ when: 'after' }]);
    });
  });
}
