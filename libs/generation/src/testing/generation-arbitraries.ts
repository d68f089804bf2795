import fc from 'fast-check';
import type { ProcessSetup, ProcessStep } from './generation-process-model';

/** Setups with small budgets and limits, so refusals (approval, daily limit, budget) happen often. */
export const processSetup = (keys = 2, workspaces = 2): fc.Arbitrary<ProcessSetup> =>
  fc.record({
    prices: fc.array(fc.integer({ min: 0, max: 600 }), { minLength: keys, maxLength: keys }),
    workspaces: fc.constant(workspaces),
    limits: fc.record({
      perCall: fc.integer({ min: 0, max: 700 }),
      daily: fc.integer({ min: 0, max: 1200 }),
      timeZone: fc.constantFrom('UTC', 'Asia/Shanghai', 'America/Los_Angeles'),
    }),
    initialBudget: fc.integer({ min: 0, max: 1500 }),
  });

/** Random interleavings of the process's steps over a small pool of keys, so they collide. */
export const processSteps = (keys = 2, workspaces = 2): fc.Arbitrary<ProcessStep[]> => {
  const ws = fc.nat(workspaces - 1);
  const key = fc.nat(keys - 1);
  const step: fc.Arbitrary<ProcessStep> = fc.oneof(
    { weight: 4, arbitrary: fc.record({ kind: fc.constant('request' as const), ws, key }) },
    { weight: 2, arbitrary: fc.record({ kind: fc.constant('approve' as const), ws, key, byAgent: fc.boolean() }) },
    {
      weight: 2,
      arbitrary: fc.record({
        kind: fc.constant('reserve' as const),
        ws,
        key,
        mode: fc.constantFrom('per_call' as const, 'within_plan' as const, 'plan_or_limits' as const),
      }),
    },
    {
      weight: 6,
      arbitrary: fc.record({
        kind: fc.constant('submit' as const),
        ws,
        key,
        outcome: fc.constantFrom(
          'ok' as const,
          'ok' as const,
          'unknown' as const,
          'rejected' as const,
          'crash' as const,
        ),
      }),
    },
    {
      weight: 2,
      arbitrary: fc.record({ kind: fc.constant('duplicateSubmit' as const), ws, key, sameId: fc.boolean() }),
    },
    {
      weight: 4,
      arbitrary: fc.record({
        kind: fc.constant('callback' as const),
        ws,
        key,
        progress: fc.integer({ min: 0, max: 100 }),
        terminal: fc.constantFrom('none' as const, 'none' as const, 'completed' as const, 'failed' as const),
        eventId: fc.nat(4),
      }),
    },
    { weight: 1, arbitrary: fc.record({ kind: fc.constant('timeout' as const), ws, key }) },
    {
      weight: 4,
      arbitrary: fc.record({ kind: fc.constant('settle' as const), ws, key, crashAfterFirst: fc.boolean() }),
    },
    { weight: 1, arbitrary: fc.record({ kind: fc.constant('refund' as const), ws, key }) },
    { weight: 1, arbitrary: fc.record({ kind: fc.constant('charge' as const), ws, key }) },
    {
      weight: 1,
      arbitrary: fc.record({
        kind: fc.constant('budget' as const),
        ws,
        amountMinor: fc.integer({ min: 0, max: 800 }),
        plan: fc.boolean(),
      }),
    },
    {
      weight: 1,
      arbitrary: fc.record({ kind: fc.constant('tick' as const), seconds: fc.constantFrom(1, 60, 3600, 86_400) }),
    },
  );
  return fc.array(step, { minLength: 1, maxLength: 60, size: 'max' });
};
