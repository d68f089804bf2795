import { formatDeadLetterId, parseDeadLetterId, type DeadLetterRef } from './dead-letter-ids';

describe('dead letter ids', () => {
  it.each<DeadLetterRef>([
    { kind: 'bus', groupId: 'lomo-executor', topic: 'lomo.events.task', partition: 3, offset: 1204 },
    { kind: 'bus', groupId: 'memory', topic: 'lomo.wakeups', partition: 0, offset: 0 },
    { kind: 'webhook', deadLetterId: '0b7c2f3e-4a1d-4c8e-9f6a-2d5b8e1c7a90' },
  ])('read back what they name: %o', (ref) => {
    expect(parseDeadLetterId(formatDeadLetterId(ref))).toEqual(ref);
  });

  it.each([
    'bus:memory:lomo.events.task:1',
    'bus:memory:lomo.events.task:1:2:3',
    'bus:mem ory:lomo.events.task:1:2',
    'bus:memory:lomo.events.task:-1:2',
    'bus:memory:lomo.events.task:01:2',
    'webhook:',
    'webhook:a:b',
    'kafka:memory:t:0:0',
    '',
  ])('name nothing when malformed: %s', (text) => {
    expect(parseDeadLetterId(text)).toBeUndefined();
  });
});
