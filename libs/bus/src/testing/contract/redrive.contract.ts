import { LomoError } from '@lomo/contracts';
import type { EventBus } from '../../event-bus.port';
import { REDRIVE_GROUP_HEADER, REDRIVE_OF_HEADER, redriveMessage } from '../../redrive-header';
import { waitFor } from '../wait-for';
import { createFeed } from './contract-feeds';
import { committedTotal, DeliveryRecorder } from './delivery-recorder';
import type { ContractContext } from './event-bus-harness';

class ContractDownError extends LomoError {
  readonly code = 'CONTRACT_DOWN';
  readonly retriable = false;
  constructor() {
    super('the dependency is down');
  }
}

const endTotal = async (bus: EventBus, topic: string) =>
  (await bus.endOffsets(topic)).reduce((sum, o) => sum + (o.offset ?? 0), 0);

/**
 * What `lomo dlq redrive` relies on: every group's dead letters in one read, the partitions'
 * ends, and a dead letter published again with the redrive header reaching the group it names
 * only, while every other group passes over it (and still commits past it).
 */
export function redriveContract(context: () => ContractContext): void {
  describe('dead letters sent back to their group', () => {
    it('a redriven copy is handled by the group it names only; the others commit past it unhandled', async () => {
      const ctx = context();
      const { bus, uniqueName, openAnother } = ctx.harness;
      const feed = createFeed('direct publish', ctx);
      await feed.attach(bus);
      ctx.onCleanup(() => feed.detach());
      const failing = uniqueName('redrive-failing');
      const other = uniqueName('redrive-other');
      let down = true;
      const recorder = new DeliveryRecorder();
      await recorder.subscribe(ctx, bus, {
        groupId: failing,
        feed,
        instance: 'failing',
        maxAttempts: 2,
        behaviour: (item) => {
          if (item.key === 'needs-dependency' && down) throw new ContractDownError();
        },
      });
      await recorder.subscribe(ctx, bus, { groupId: other, feed, instance: 'other' });
      await feed.send([
        { key: 'needs-dependency', seq: 0 },
        { key: 'plain', seq: 0 },
      ]);
      await waitFor(
        async () =>
          recorder.handled({ instance: 'other' }).length === 2 &&
          (await bus.readDeadLetters(failing)).length === 1 &&
          (await committedTotal(bus, failing, feed.topic)) === 2,
        'one dead letter in the failing group, both messages handled by the other',
        ctx.timing.waitTimeoutMs,
      );
      expect(await endTotal(bus, feed.topic)).toBe(2);
      expect((await bus.endOffsets(feed.topic)).map((o) => o.partition)).toEqual(
        Array.from({ length: ctx.timing.partitions }, (_, p) => p),
      );
      const [letter] = await bus.readDeadLetters(failing);
      // Without a group: every group's records (a shared broker holds other tests' too).
      const all = await bus.readDeadLetters();
      expect(all.filter((d) => d.groupId === failing || d.groupId === other)).toEqual([letter]);

      // Sent back from another bus instance, as the operator's CLI process does.
      down = false;
      const cli = await openAnother();
      await cli.publish(feed.topic, [redriveMessage(letter, 'redrive-contract-1')]);
      await waitFor(
        async () =>
          recorder.handled({ instance: 'failing', key: 'needs-dependency' }).length === 1 &&
          (await committedTotal(bus, other, feed.topic)) === 3,
        'the failing group handled the copy and the other group committed past it',
        ctx.timing.waitTimeoutMs,
      );
      const [redriven] = recorder.handled({ instance: 'failing', key: 'needs-dependency' });
      expect(redriven.message.headers).toMatchObject({
        [REDRIVE_GROUP_HEADER]: failing,
        [REDRIVE_OF_HEADER]: 'redrive-contract-1',
      });
      expect(redriven.message.partition).toBe(letter.message.partition);
      expect(recorder.deliveries.filter((d) => d.instance === 'other')).toHaveLength(2);
      expect(await endTotal(bus, feed.topic)).toBe(3);
      expect(await bus.readDeadLetters(failing)).toHaveLength(1);
    });
  });
}
