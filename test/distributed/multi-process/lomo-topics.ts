import { Kafka, logLevel, type Admin } from 'kafkajs';
import { createKafkaEventBus } from '@lomo/bus';
import { waitFor } from '@lomo/bus/testing';
import { streamCategories, WAKE_UP_TOPIC } from '@lomo/contracts';
import { CHANGES_TOPIC } from '@lomo/read-models';
import { testBusLogger } from '../support/kafka-test-env';

/** Partitions the apps ask for (LOMO_BUS_PARTITIONS' default); pre-created topics must match. */
export const BUS_PARTITIONS = 8;

/** The topics the apps use under their fixed names. */
export const lomoTopics = (): string[] => [
  ...streamCategories.map((c) => `lomo.events.${c}`),
  WAKE_UP_TOPIC,
  CHANGES_TOPIC,
];

/** Groups the apps join under fixed names (api instances use a fresh `api-<uuid>` each). */
const FIXED_GROUPS = ['router', 'projector', 'lomo-executor'];
const isLomoGroup = (id: string) =>
  FIXED_GROUPS.includes(id) || id.startsWith('lomo-executor-cancels.') || id.startsWith('lomo.dlt-reader.');

/**
 * Gives a drill a broker without a previous run's traffic, without restarting it.
 *
 * The apps' topics and groups have fixed names, and the broker outlives every run: a leftover
 * message on `lomo.events.main` would be routed again into this run's (different) event store,
 * and a leftover committed offset would make a recreated topic's first messages look consumed.
 * So every `lomo.*` topic is deleted (the broker drops their offsets with them), every fixed
 * group is deleted once its members from a killed run have timed out, and the topics are created
 * again before any app starts: apps that create them concurrently at start trip over KRaft's
 * metadata propagation (UNKNOWN_TOPIC_OR_PARTITION right after the create).
 * Deleting beats a `KAFKA_CLEAN=1` restart: other suites' topics (unique names) are untouched.
 */
export async function resetLomoTopics(brokers: readonly string[], groupWaitMs = 45_000): Promise<void> {
  const kafka = new Kafka({ clientId: 'lomo-drill-reset', brokers: [...brokers], logLevel: logLevel.NOTHING });
  const admin = kafka.admin();
  // The broker may be (re)starting: another suite restarts it, and `kafka.sh start` returns
  // when the port opens, a moment before it takes requests.
  await waitFor(
    async () => {
      try {
        await admin.connect();
        await admin.listTopics();
        return true;
      } catch {
        await admin.disconnect().catch(() => undefined);
        return false;
      }
    },
    `the broker at ${brokers.join(',')}`,
    90_000,
    1_000,
  );
  try {
    const doomed = (await admin.listTopics()).filter((t) => t.startsWith('lomo.'));
    if (doomed.length > 0) {
      await admin.deleteTopics({ topics: doomed, timeout: 30_000 });
      await waitFor(
        async () => !(await admin.listTopics()).some((t) => doomed.includes(t)),
        'the deleted lomo.* topics to disappear',
        60_000,
        200,
      );
    }
    await deleteGroups(admin, groupWaitMs);
  } finally {
    await admin.disconnect();
  }
  const bus = createKafkaEventBus({
    brokers: [...brokers],
    clientId: 'lomo-drill-reset',
    logger: testBusLogger('reset'),
  });
  try {
    // Deletion finishes in the background on the broker; a create may still see the old topic.
    await waitFor(
      async () => {
        try {
          await bus.ensureTopics(lomoTopics().map((name) => ({ name, partitions: BUS_PARTITIONS })));
          return true;
        } catch {
          return false;
        }
      },
      'the lomo.* topics created again',
      60_000,
      500,
    );
  } finally {
    await bus.close();
  }
}

async function deleteGroups(admin: Admin, waitMs: number): Promise<void> {
  const pending = new Set((await admin.listGroups()).groups.map((g) => g.groupId).filter(isLomoGroup));
  const deadline = Date.now() + waitMs;
  while (pending.size > 0) {
    for (const groupId of [...pending]) {
      try {
        await admin.deleteGroups([groupId]);
        pending.delete(groupId);
      } catch (error) {
        // GROUP_ID_NOT_FOUND: already gone. NON_EMPTY_GROUP: a killed run's member has not
        // timed out yet; its offsets went with the topics anyway, so waiting is only tidiness.
        if (/not found|does not exist/i.test(String(error))) pending.delete(groupId);
      }
    }
    if (pending.size === 0 || Date.now() > deadline) return;
    await new Promise((resolve) => setTimeout(resolve, 1_000));
  }
}
