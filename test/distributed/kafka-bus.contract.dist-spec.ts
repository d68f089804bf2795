import { createKafkaEventBus, type KafkaEventBus } from '@lomo/bus';
import { describeEventBusContract } from '@lomo/bus/testing';
import { kafkaBrokers, testBusLogger, uniqueKafkaName } from './support/kafka-test-env';

// One dead-letter topic per run: records are keyed by group and every group name is unique.
const deadLetterTopic = uniqueKafkaName('lomo-contract.deadletters');

describeEventBusContract(
  'kafka (kafkajs on a real broker)',
  async () => {
    const buses: KafkaEventBus[] = [];
    const open = () => {
      const bus = createKafkaEventBus({
        brokers: kafkaBrokers,
        clientId: 'lomo-contract',
        deadLetterTopic,
        logger: testBusLogger('kafka-contract'),
      });
      buses.push(bus);
      return bus;
    };
    return {
      bus: open(),
      openAnother: async () => open(),
      uniqueName: uniqueKafkaName,
      dispose: async () => {
        await Promise.all(buses.map((bus) => bus.close()));
      },
    };
  },
  // A rebalance needs every member to notice it on a heartbeat (1 s) and rejoin: seconds, not
  // milliseconds. The waits are condition-based, so a generous limit costs nothing when green.
  { timing: { waitTimeoutMs: 30_000, testTimeoutMs: 120_000 } },
);
