import { LomoError } from '@lomo/contracts';
import type { ConsumerHandle, EventBus, TopicPartition } from '../../event-bus.port';
import { waitFor } from '../wait-for';
import { createFeed, type ContractFeed, type FeedKind } from './contract-feeds';
import { committedOf, committedTotal, DeliveryRecorder, interleaved, range } from './delivery-recorder';
import type { ContractContext } from './event-bus-harness';

class ContractPoisonError extends LomoError {
  readonly code = 'CONTRACT_POISON';
  readonly retriable = false;
  constructor(seq: number) {
    super(`poison message ${seq} can never be handled`);
  }
}

const tpKey = (tp: TopicPartition) => `${tp.topic}#${tp.partition}`;

async function attachedFeed(ctx: ContractContext, kind: FeedKind, bus: EventBus): Promise<ContractFeed> {
  const feed = createFeed(kind, ctx);
  await feed.attach(bus);
  ctx.onCleanup(() => feed.detach());
  return feed;
}

/** Delivery guarantees, run once with direct publishes and once with events relayed from a store. */
export function deliveryContract(context: () => ContractContext, kind: FeedKind): void {
  describe(`delivery guarantees with ${kind}`, () => {
    it("a handler that fails twice then succeeds receives the message three times, and the group's checkpoint moves only after success", async () => {
      const ctx = context();
      const { bus, uniqueName } = ctx.harness;
      const feed = await attachedFeed(ctx, kind, bus);
      const groupId = uniqueName('retry-group');
      const committedWhileHandling: Array<number | null> = [];
      const recorder = new DeliveryRecorder();
      await recorder.subscribe(ctx, bus, {
        groupId,
        feed,
        instance: 'a',
        behaviour: async (item, message, { attempt }) => {
          if (item.key !== 'flaky') return;
          committedWhileHandling.push(await committedOf(bus, groupId, feed.topic, message.partition));
          if (attempt <= 2) throw new Error(`transient failure on attempt ${attempt}`);
        },
      });
      await feed.send([
        { key: 'flaky', seq: 0 },
        { key: 'steady', seq: 0 },
      ]);

      await waitFor(() => recorder.handled().length === 2, 'both messages handled', ctx.timing.waitTimeoutMs);
      const flaky = recorder.deliveries.filter((d) => d.item.key === 'flaky');
      expect(flaky.map((d) => [d.attempt, d.ok])).toEqual([
        [1, false],
        [2, false],
        [3, true],
      ]);
      const { partition, offset } = flaky[0].message;
      expect(flaky.every((d) => d.message.partition === partition && d.message.offset === offset)).toBe(true);
      expect(committedWhileHandling).toHaveLength(3);
      for (const committed of committedWhileHandling) expect(committed ?? 0).toBeLessThanOrEqual(offset);
      await waitFor(
        async () => ((await committedOf(bus, groupId, feed.topic, partition)) ?? 0) > offset,
        'the checkpoint past the message',
        ctx.timing.waitTimeoutMs,
      );
      expect(recorder.deliveries.filter((d) => d.item.key === 'steady')).toHaveLength(1);
      expect(await bus.readDeadLetters(groupId)).toEqual([]);
    });

    it('a poison message lands in the dead-letter record and does not block later messages of other keys', async () => {
      const ctx = context();
      const { bus, uniqueName } = ctx.harness;
      const feed = await attachedFeed(ctx, kind, bus);
      const groupId = uniqueName('poison-group');
      const recorder = new DeliveryRecorder();
      await recorder.subscribe(ctx, bus, {
        groupId,
        feed,
        instance: 'a',
        maxAttempts: 3,
        behaviour: (item) => {
          if (item.key === 'poison') throw new ContractPoisonError(item.seq);
        },
      });
      const later = interleaved('k', 6, 0, 3);
      await feed.send([{ key: 'poison', seq: 0 }, ...later]);

      await waitFor(
        async () => recorder.handled().length === later.length && (await bus.readDeadLetters(groupId)).length === 1,
        'the other keys handled and one dead letter',
        ctx.timing.waitTimeoutMs,
      );
      const poison = recorder.deliveries.filter((d) => d.item.key === 'poison');
      expect(poison.map((d) => d.attempt)).toEqual([1, 2, 3]);
      const [dead] = await bus.readDeadLetters(groupId);
      expect(dead).toMatchObject({
        groupId,
        topic: feed.topic,
        attempts: 3,
        error: { code: 'CONTRACT_POISON', message: 'poison message 0 can never be handled' },
        message: {
          topic: feed.topic,
          key: feed.transportKey('poison'),
          partition: poison[0].message.partition,
          offset: poison[0].message.offset,
        },
      });
      expect(feed.decode(dead.message)).toEqual({ key: 'poison', seq: 0 });
      for (const [key, seqs] of recorder.seqsByKey()) expect([key, seqs]).toEqual([key, [0, 1, 2]]);
      await waitFor(
        async () => (await committedTotal(bus, groupId, feed.topic)) === later.length + 1,
        'offsets committed past the poison message',
        ctx.timing.waitTimeoutMs,
      );
      expect(await bus.readDeadLetters(uniqueName('another-group'))).toEqual([]);
    });

    it('two instances of one group split the keys, keep per-key order, and rebalance when one leaves', async () => {
      const ctx = context();
      const { harness, timing } = ctx;
      const feed = await attachedFeed(ctx, kind, harness.bus);
      const groupId = harness.uniqueName('split-group');
      const recorder = new DeliveryRecorder();
      const a = await recorder.subscribe(ctx, harness.bus, { groupId, feed, instance: 'a' });
      await waitFor(
        () => a.assignment().length === timing.partitions,
        'a alone owns every partition',
        timing.waitTimeoutMs,
      );
      const second = await harness.openAnother();
      const b = await recorder.subscribe(ctx, second, { groupId, feed, instance: 'b' });
      const split = (x: ConsumerHandle, y: ConsumerHandle) => {
        const xs = new Set(x.assignment().map(tpKey));
        const ys = y.assignment().map(tpKey);
        return xs.size > 0 && ys.length > 0 && xs.size + ys.length === timing.partitions && ys.every((k) => !xs.has(k));
      };
      await waitFor(() => split(a, b), 'the partitions split between a and b', timing.waitTimeoutMs);
      const owned = { a: new Set(a.assignment().map(tpKey)), b: new Set(b.assignment().map(tpKey)) };

      const first = interleaved('key', 16, 0, 4);
      await feed.send(first);
      await waitFor(
        () => recorder.handled().length === first.length,
        'every message handled once',
        timing.waitTimeoutMs,
      );
      expect(recorder.deliveries).toHaveLength(first.length);
      const instancesOf = new Map<string, Set<string>>();
      for (const d of recorder.handled()) {
        instancesOf.set(d.item.key, (instancesOf.get(d.item.key) ?? new Set()).add(d.instance));
        expect(owned[d.instance as 'a' | 'b'].has(tpKey(d.message))).toBe(true);
      }
      expect([...instancesOf.values()].every((s) => s.size === 1)).toBe(true);
      expect(new Set(recorder.handled().map((d) => d.instance))).toEqual(new Set(['a', 'b']));
      for (const [key, seqs] of recorder.seqsByKey()) expect([key, seqs]).toEqual([key, [0, 1, 2, 3]]);

      await b.stop();
      await waitFor(
        () => a.assignment().length === timing.partitions,
        'a takes over every partition',
        timing.waitTimeoutMs,
      );
      const more = interleaved('key', 16, 4, 6);
      await feed.send(more);
      await waitFor(
        () => recorder.handled({ instance: 'a' }).filter((d) => d.item.seq >= 4).length === more.length,
        'a handles the rest',
        timing.waitTimeoutMs,
      );
      for (const [key, seqs] of recorder.seqsByKey()) expect([key, seqs]).toEqual([key, range(0, 6)]);
    });

    it('two groups each see every message', async () => {
      const ctx = context();
      const { bus, uniqueName } = ctx.harness;
      const feed = await attachedFeed(ctx, kind, bus);
      const groups = [uniqueName('group-one'), uniqueName('group-two')];
      const recorder = new DeliveryRecorder();
      for (const groupId of groups) await recorder.subscribe(ctx, bus, { groupId, feed, instance: groupId });
      const items = interleaved('key', 6, 0, 4);
      await feed.send(items);

      await waitFor(
        () => recorder.handled().length === items.length * 2,
        'both groups handle everything',
        ctx.timing.waitTimeoutMs,
      );
      for (const groupId of groups) {
        const seqs = recorder.seqsByKey(groupId);
        expect(seqs.size).toBe(6);
        for (const [key, list] of seqs) expect([key, list]).toEqual([key, [0, 1, 2, 3]]);
        await waitFor(
          async () => (await committedTotal(bus, groupId, feed.topic)) === items.length,
          `${groupId} committed`,
          ctx.timing.waitTimeoutMs,
        );
      }
      expect(recorder.deliveries).toHaveLength(items.length * 2);
    });

    it('a restart resumes from the checkpoint with nothing skipped', async () => {
      const ctx = context();
      const { harness, timing } = ctx;
      const groupId = harness.uniqueName('restart-group');
      const feed = await attachedFeed(ctx, kind, harness.bus);
      const before = interleaved('key', 6, 0, 5);
      const halfway = 12;
      let releaseGate: () => void = () => undefined;
      const gate = new Promise<void>((resolve) => (releaseGate = resolve));
      const firstRun = new DeliveryRecorder();
      const first = await firstRun.subscribe(ctx, harness.bus, {
        groupId,
        feed,
        instance: 'first',
        // Past the halfway mark, handlers hang until the test has asked the instance to stop.
        behaviour: async () => {
          if (firstRun.handled().length >= halfway) await gate;
        },
      });
      await feed.send(before);
      await waitFor(() => firstRun.handled().length >= halfway, 'the first half handled', timing.waitTimeoutMs);
      const stopping = first.stop();
      releaseGate();
      await stopping;
      await feed.detach();
      const checkpoint = await harness.bus.committedOffsets(groupId, feed.topic);
      const committedBelow = (p: number) => checkpoint.find((c) => c.partition === p)?.offset ?? 0;
      const handledFirst = firstRun.handled();
      expect(handledFirst.length).toBeLessThan(before.length);
      // What the first run finished is exactly what its checkpoint covers: the stop committed it.
      expect(handledFirst.length).toBe(checkpoint.reduce((sum, c) => sum + (c.offset ?? 0), 0));
      for (const d of handledFirst) expect(d.message.offset).toBeLessThan(committedBelow(d.message.partition));

      await harness.bus.close();
      const reopened = await harness.openAnother();
      await feed.attach(reopened);
      const after = interleaved('key', 6, 5, 7);
      await feed.send(after);
      const secondRun = new DeliveryRecorder();
      await secondRun.subscribe(ctx, reopened, { groupId, feed, instance: 'second' });
      const total = before.length + after.length;
      await waitFor(
        () => handledFirst.length + secondRun.handled().length >= total,
        'the rest handled after the restart',
        timing.waitTimeoutMs,
      );

      for (const d of secondRun.handled())
        expect(d.message.offset).toBeGreaterThanOrEqual(committedBelow(d.message.partition));
      const firstSeqs = firstRun.seqsByKey();
      const secondSeqs = secondRun.seqsByKey();
      for (let k = 0; k < 6; k += 1) {
        const key = `key${k}`;
        expect([key, [...(firstSeqs.get(key) ?? []), ...(secondSeqs.get(key) ?? [])]]).toEqual([key, range(0, 7)]);
      }
      await waitFor(
        async () => (await committedTotal(reopened, groupId, feed.topic)) === total,
        'everything committed',
        timing.waitTimeoutMs,
      );
    });
  });
}
