/**
 * The relay as its own process, for crash drills: `node -r ./scripts/register.cjs
 * test/distributed/support/relay-process.ts <sqlite file> <topic prefix> <batch size>`.
 * Reports on stdout, one line each: `ready`, then `publishing <n>` right before every publish
 * call leaves for the broker (the parent SIGKILLs on one of these), `published <n>` after it.
 * SIGTERM stops it cleanly.
 */
import { SqliteEventStore } from '@lomo/eventstore';
import { type EventBus, type OutgoingMessage, createKafkaEventBus, EventRelay } from '@lomo/bus';
import { kafkaBrokers, testBusLogger } from './kafka-test-env';

const [filename, topicPrefix, batchSize] = process.argv.slice(2);
if (!filename || !topicPrefix || !batchSize) {
  process.stderr.write('usage: relay-process.ts <sqlite file> <topic prefix> <batch size>\n');
  process.exit(2);
}

const say = (line: string) => process.stdout.write(`${line}\n`);

/** The real bus, announcing each publish so the parent can kill the process in the middle of one. */
function announcing(bus: EventBus): EventBus {
  let calls = 0;
  return {
    ensureTopics: (topics) => bus.ensureTopics(topics),
    publish: async (topic: string, messages: readonly OutgoingMessage[]) => {
      calls += 1;
      const n = calls;
      say(`publishing ${n} ${messages.length}`);
      await bus.publish(topic, messages);
      say(`published ${n}`);
    },
    subscribe: (options) => bus.subscribe(options),
    committedOffsets: (groupId, topic) => bus.committedOffsets(groupId, topic),
    endOffsets: (topic) => bus.endOffsets(topic),
    readDeadLetters: (groupId) => bus.readDeadLetters(groupId),
    close: () => bus.close(),
  };
}

async function main(): Promise<void> {
  const logger = testBusLogger('relay-process');
  const store = new SqliteEventStore({ filename });
  const bus = createKafkaEventBus({ brokers: kafkaBrokers, clientId: 'lomo-relay-drill', logger });
  const relay = new EventRelay({
    store,
    bus: announcing(bus),
    relayId: 'relay-drill',
    topicPrefix,
    partitions: 4,
    batchSize: Number(batchSize),
    idleIntervalMs: 20,
    logger,
  });
  process.once('SIGTERM', () => {
    void relay
      .stop()
      .then(() => bus.close())
      .then(() => store.close())
      .then(() => process.exit(0));
  });
  await relay.ensureTopics(['task', 'turn']);
  relay.start();
  say('ready');
}

main().catch((error: unknown) => {
  process.stderr.write(`relay process failed: ${error instanceof Error ? error.stack : String(error)}\n`);
  process.exit(1);
});
