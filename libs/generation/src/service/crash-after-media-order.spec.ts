import { randomUUID } from 'node:crypto';
import { InMemoryEventStore } from '@lomo/bus/testing';
import type { TestCrashFault } from '@lomo/contracts';
import { SimulatedGenerationProvider } from '../simulated/simulated-generation-provider';
import { GenerationOrders } from './generation-orders';

// The drills' crash point `crash_after_media_order` (libs/platform/src/test-control/README.md):
// the process dies after a media order is recorded and before the tool answers `pending`.

describe('crash_after_media_order (generation orders)', () => {
  const TURN = '00000000-0000-4000-8000-0000000000b1';
  const order = {
    workspaceId: 'ws_a',
    taskId: '00000000-0000-4000-8000-0000000000a1',
    turnId: TURN,
    callId: `${TURN}:1:0`,
    correlationId: TURN,
    kind: 'image' as const,
    operation: 'image.generate',
    prompt: 'a warm poster of the harbour',
    options: {},
  };

  it('is reached once per order, with the job and its quote already recorded', async () => {
    const store = new InMemoryEventStore();
    const atCrashPoint: string[][] = [];
    const crashPoint = jest.fn((fault: TestCrashFault) => {
      expect(fault).toBe('crash_after_media_order');
      // What a restarted process finds: the order and the quote, durably appended.
      void store
        .readAll({ filter: { eventTypes: ['GenerationRequested', 'QuoteIssued'] } })
        .then((events) => atCrashPoint.push(events.map((e) => e.type)));
    });
    const orders = new GenerationOrders({
      store,
      ids: { uuid: () => randomUUID() },
      clock: { now: () => new Date('2026-01-05T09:00:00Z') },
      providers: [new SimulatedGenerationProvider({ baseUrl: 'http://sim-upstream.invalid' })],
      testControl: { mutation: () => false, crashPoint },
    });
    const first = await orders.request(order);
    await new Promise((resolve) => setImmediate(resolve));
    expect(crashPoint).toHaveBeenCalledTimes(1);
    expect(atCrashPoint).toEqual([['GenerationRequested', 'QuoteIssued']]);
    // The retry after the restart (same call id) joins the job: one order, one quote.
    const retried = await orders.request(order);
    expect(retried.jobId).toBe(first.jobId);
    const requested = await store.readAll({ filter: { eventTypes: ['GenerationRequested'] } });
    expect(requested).toHaveLength(1);
  });
});
