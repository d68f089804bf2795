import type { DeadLetter, ReceivedMessage } from '../event-bus.port';
import { noopBusLogger } from '../logger';
import { REDRIVE_GROUP_HEADER } from '../redrive-header';
import { MessageDelivery, type DeadLetterSink } from './message-delivery';

// The Kafka adapter's delivery path without a broker: a redriven copy reaches only the group it
// names (the contract suite shows it end to end on a real broker: test/distributed).

const message = (headers: Record<string, string>): ReceivedMessage => ({
  topic: 'lomo.events.task',
  partition: 0,
  offset: 7,
  key: 'task-1',
  value: { type: 'X' },
  headers,
  timestamp: 0,
});

function delivery(groupId: string, fail: boolean) {
  const handled: ReceivedMessage[] = [];
  const letters: DeadLetter[] = [];
  const sink: DeadLetterSink = {
    write: async (record) => {
      letters.push(record);
      return true;
    },
  };
  const subject = new MessageDelivery(
    {
      groupId,
      maxAttempts: 1,
      backoff: { initialDelayMs: 1, maxDelayMs: 1 },
      handler: async (m) => {
        handled.push(m);
        if (fail) throw new Error('handler failed');
      },
    },
    sink,
    noopBusLogger,
  );
  return { subject, handled, letters };
}

describe('MessageDelivery and redriven copies', () => {
  const signal = new AbortController().signal;

  it('passes over a copy meant for another group without calling the handler or dead-lettering', async () => {
    const { subject, handled, letters } = delivery('router', true);
    await expect(subject.deliver(message({ [REDRIVE_GROUP_HEADER]: 'memory' }), signal)).resolves.toBe('handled');
    expect(handled).toEqual([]);
    expect(letters).toEqual([]);
  });

  it('hands a copy meant for its own group to the handler, with the usual dead letter on failure', async () => {
    const { subject, handled, letters } = delivery('memory', true);
    const copy = message({ [REDRIVE_GROUP_HEADER]: 'memory' });
    await expect(subject.deliver(copy, signal)).resolves.toBe('dead-lettered');
    expect(handled).toEqual([copy]);
    expect(letters.map((l) => [l.groupId, l.message.offset])).toEqual([['memory', 7]]);
  });

  it('hands an ordinary message to every group', async () => {
    const { subject, handled } = delivery('router', false);
    await expect(subject.deliver(message({}), signal)).resolves.toBe('handled');
    expect(handled).toHaveLength(1);
  });
});
