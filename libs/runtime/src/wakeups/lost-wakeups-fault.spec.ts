import type { EventBus, MessageHandler, ReceivedMessage } from '@lomo/bus';
import { WAKE_UP_TOPIC, type TestFault } from '@lomo/contracts';
import { createLogger } from '@lomo/observability';
import type { WakeRequest } from '../worker/task-worker';
import { EXECUTOR_WAKE_GROUP, WakeUpConsumer } from './wake-up-consumer';

const taskA = '00000000-0000-4000-8000-00000000000a';
const taskB = '00000000-0000-4000-8000-00000000000b';

/** A bus that hands the test the consumer's handlers, and a target that records the wakes. */
async function consumerWith(faults: Set<TestFault> | undefined) {
  const handlers = new Map<string, MessageHandler>();
  const bus = {
    ensureTopics: async () => undefined,
    subscribe: async (options: { groupId: string; handler: MessageHandler }) => {
      handlers.set(options.groupId, options.handler);
      return { stop: async () => undefined };
    },
  } as unknown as EventBus;
  const woken: WakeRequest[] = [];
  const consumer = new WakeUpConsumer(
    bus,
    { wake: async (r) => void woken.push(r), cancel: () => false },
    createLogger({ level: 'silent' }),
    {
      workerId: 'w1',
      partitions: 1,
      maxAttempts: 1,
      ...(faults !== undefined ? { testControl: { fault: (name: TestFault) => faults.has(name) } } : {}),
    },
  );
  await consumer.start();
  let offset = 0;
  const deliver = async (taskId: string, reason = 'message') => {
    const message: ReceivedMessage = {
      topic: WAKE_UP_TOPIC,
      partition: 0,
      offset: offset++,
      key: taskId,
      value: { kind: 'wake', workspaceId: 'ws_a', taskId, reason },
      headers: {},
      timestamp: 0,
    };
    await handlers.get(EXECUTOR_WAKE_GROUP)!(message, { attempt: 1 } as never);
  };
  return { woken, deliver };
}

describe('the lost_wakeups test fault (wake-up consumer)', () => {
  it('off (or no test control): every wake-up starts the task', async () => {
    for (const faults of [undefined, new Set<TestFault>()]) {
      const { woken, deliver } = await consumerWith(faults);
      await deliver(taskA);
      await deliver(taskA, 'approval');
      expect(woken).toEqual([
        { taskId: taskA, reason: 'message' },
        { taskId: taskA, reason: 'approval' },
      ]);
    }
  });

  it('on: the first, third... wake-up of each task is dropped, the others go through', async () => {
    const faults = new Set<TestFault>(['lost_wakeups']);
    const { woken, deliver } = await consumerWith(faults);
    await deliver(taskA); // dropped
    await deliver(taskB); // dropped
    await deliver(taskA, 'job_completed'); // through
    await deliver(taskA, 'approval'); // dropped
    await deliver(taskB, 'approval'); // through
    expect(woken).toEqual([
      { taskId: taskA, reason: 'job_completed' },
      { taskId: taskB, reason: 'approval' },
    ]);
    // Switched off at run time: nothing more is dropped.
    faults.clear();
    await deliver(taskA, 'resume');
    expect(woken).toHaveLength(3);
  });
});
