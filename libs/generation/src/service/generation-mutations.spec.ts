import { randomUUID } from 'node:crypto';
import { InMemoryEventStore } from '@lomo/bus/testing';
import { streams, type TestMutation } from '@lomo/contracts';
import {
  accountHistory,
  at,
  budgetOf,
  callOf,
  foldAccount,
  issueQuoteOf,
  jobOf,
  limitsOf,
  requestOf,
} from '../testing';
import type { ReserveFunds } from '../account/account-commands';
import { accountDecider } from '../account/account-decider';
import { PaymentNotAuthorizedError } from '../account/account-errors';
import { SimulatedGenerationProvider } from '../simulated/simulated-generation-provider';
import { GenerationOrders } from './generation-orders';

// The drills' generation mutations (libs/platform/src/test-control/README.md).

const switches = (...names: TestMutation[]) => ({ mutation: (name: TestMutation) => names.includes(name) });

describe('no_duplicate_check (generation orders)', () => {
  const TURN = '00000000-0000-4000-8000-0000000000b1';
  const order = (callId: string) => ({
    workspaceId: 'ws_a',
    taskId: '00000000-0000-4000-8000-0000000000a1',
    turnId: TURN,
    callId,
    correlationId: TURN,
    kind: 'image' as const,
    operation: 'image.generate',
    prompt: 'a warm poster of the harbour',
    options: {},
  });
  const ordersWith = (testControl?: ReturnType<typeof switches>) => {
    const store = new InMemoryEventStore();
    const orders = new GenerationOrders({
      store,
      ids: { uuid: () => randomUUID() },
      clock: { now: () => new Date('2026-01-05T09:00:00Z') },
      providers: [new SimulatedGenerationProvider({ baseUrl: 'http://sim-upstream.invalid' })],
      ...(testControl !== undefined ? { testControl } : {}),
    });
    const requested = async () =>
      (await store.readAll({ filter: { eventTypes: ['GenerationRequested'] } })).map(
        (e) => (e.data as { callId: string }).callId,
      );
    return { orders, requested };
  };

  it('off: a repeated order of one call (a retry, a takeover) joins the job it ordered', async () => {
    const { orders, requested } = ordersWith(switches());
    const first = await orders.request(order(`${TURN}:1:0`));
    const again = await orders.request(order(`${TURN}:1:0`));
    expect(again.jobId).toBe(first.jobId);
    expect(await requested()).toEqual([`${TURN}:1:0`]);
  });

  it('on: each repeat orders and quotes a new paid job under a sibling key of the call', async () => {
    const { orders, requested } = ordersWith(switches('no_duplicate_check'));
    const first = await orders.request(order(`${TURN}:1:0`));
    const again = await orders.request(order(`${TURN}:1:0`));
    const third = await orders.request(order(`${TURN}:1:0`));
    expect(new Set([first.jobId, again.jobId, third.jobId]).size).toBe(3);
    expect(await requested()).toEqual([`${TURN}:1:0`, `${TURN}:1:1000`, `${TURN}:1:2000`]);
    // A first order of another call is unchanged.
    await orders.request(order(`${TURN}:2:0`));
    expect((await requested()).at(-1)).toBe(`${TURN}:2:0`);
    expect(streams.generation(first.jobId)).not.toBe(streams.generation(again.jobId));
  });
});

describe('no_budget_check (account reservation)', () => {
  const big = requestOf({ callId: callOf(1, 0), amountMinor: 600 });
  const reserve: ReserveFunds = {
    type: 'ReserveFunds',
    jobId: jobOf(callOf(1, 0)),
    quoteId: big.quote.quoteId,
    at: at(0),
    expiresAt: at(600),
  };

  it('off: a quote no one approved, beyond the limits and the budget, is refused', () => {
    const state = foldAccount(accountHistory(budgetOf(100), limitsOf(500, 800), issueQuoteOf(big)));
    expect(() => accountDecider.decide(reserve, state)).toThrow(PaymentNotAuthorizedError);
    expect(() => accountDecider.decide({ ...reserve, mode: 'per_call' }, state)).toThrow(PaymentNotAuthorizedError);
  });

  it('on (skipBudgetCheck, set by the generation service under the mutation): reserved as if the plan covered it', () => {
    const state = foldAccount(accountHistory(budgetOf(100), limitsOf(500, 800), issueQuoteOf(big)));
    const events = accountDecider.decide({ ...reserve, mode: 'per_call', skipBudgetCheck: true }, state);
    expect(events).toEqual([
      expect.objectContaining({
        type: 'FundsReserved',
        data: expect.objectContaining({ amountMinor: 600, authorization: 'plan_approved' }),
      }),
    ]);
  });
});
