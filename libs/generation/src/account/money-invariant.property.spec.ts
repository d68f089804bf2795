import fc from 'fast-check';
import { GenerationProcessModel, processSetup, processSteps } from '../testing';

// Both deciders driven together by a pure model of the generation process
// (libs/generation/src/testing/generation-process-model.ts): whatever the interleaving of
// requests, approvals (some forged by the agent), submits (some crashing before the upstream id is
// recorded, some with an unknown outcome), duplicate submits, callbacks out of order, timeouts,
// settlements interrupted between two writes, stray refunds and charges, the money holds.

function checkInvariants(model: GenerationProcessModel): void {
  expect(model.schemaIssues).toEqual([]);
  for (let ws = 0; ws < model.setup.workspaces; ws += 1) {
    const account = model.accounts[ws].state;
    for (const [currency, t] of Object.entries(account.totals)) {
      // reserved ≥ 0, and spent (charged − refunded) never exceeds the approved budget.
      expect({ currency, reserved: t.reservedMinor >= 0 }).toEqual({ currency, reserved: true });
      expect(t.chargedMinor - t.refundedMinor).toBeLessThanOrEqual(t.budgetMinor);
      expect(t.chargedMinor - t.refundedMinor + t.reservedMinor).toBeLessThanOrEqual(t.budgetMinor);
    }
    // A plan's own money: what its plan-approved jobs hold or spent never passes its approved plan budget.
    for (const [plan, p] of Object.entries(account.plans))
      expect({ plan, within: p.heldMinor >= 0 && p.heldMinor <= p.budgetMinor }).toEqual({ plan, within: true });
    // Money not approved call by call never passes the daily limit of its day.
    for (const [day, used] of Object.entries(account.autoApprovedByDay))
      expect({ day, within: used <= (account.limits?.dailyAutoApproveMinor ?? 0) }).toEqual({ day, within: true });
    // A task that confirms every paid call: only a person's approval of the quote let it reserve.
    for (const jobId of model.perCallReserved)
      expect(account.jobs[jobId]?.authorization ?? 'quote_approved').toBe('quote_approved');
    for (let key = 0; key < model.setup.prices.length; key += 1) {
      const l = model.ledgerOf(ws, key);
      // charges − refunds ∈ {0, price} for every (workspace, key).
      expect([0, l.price]).toContain(l.charged - l.refunded);
      expect(l.reserved).toBeGreaterThanOrEqual(0);
      expect(l.charged).toBeLessThanOrEqual(l.price);
      expect(l.refunded).toBeLessThanOrEqual(l.charged);
      // One job per key: one request, on the stream its derived id names.
      expect(l.requests).toBeLessThanOrEqual(1);
      // The job's record of its money never runs ahead of the ledger.
      if (l.job.status !== 'none') {
        if (l.job.charge !== null) expect(l.charged).toBe(l.job.charge.amountMinor);
        if (l.job.refund !== null) expect(l.refunded).toBe(l.job.refund.amountMinor);
      }
    }
  }
}

describe('money invariant over random interleavings of submit, duplicate, timeout, callback, refund (property)', () => {
  it('for every (workspace, key): charges − refunds ∈ {0, price}, reserved ≥ 0, spent ≤ approved budget, one job per key; never beyond an approved plan budget or the daily limit, never a per-call task without its approval', () => {
    fc.assert(
      fc.property(processSetup(), processSteps(), (setup, steps) => {
        const model = new GenerationProcessModel(setup);
        for (const step of steps) {
          model.apply(step);
          checkInvariants(model);
        }
        model.quiesce();
        checkInvariants(model);
        // Settled: completed jobs paid their price once, failed ones nothing, nothing is held.
        for (let ws = 0; ws < setup.workspaces; ws += 1) {
          for (let key = 0; key < setup.prices.length; key += 1) {
            const l = model.ledgerOf(ws, key);
            expect(l.reserved).toBe(0);
            if (l.jobStatus === 'completed') expect(l.charged - l.refunded).toBe(l.price);
            if (l.jobStatus === 'failed') expect(l.charged - l.refunded).toBe(0);
            expect(['none', 'completed', 'failed']).toContain(l.jobStatus);
            if (l.job.status !== 'none') {
              expect(l.job.charge?.amountMinor ?? 0).toBe(l.charged);
              expect(l.job.refund?.amountMinor ?? 0).toBe(l.refunded);
            }
          }
          expect(model.accounts[ws].state.totals.USD?.reservedMinor ?? 0).toBe(0);
        }
      }),
      { numRuns: 200, seed: 2026 },
    );
  });

  it('the interleavings reach every event type of both streams, and every kind of reservation authorization', () => {
    const seen = new Set<string>();
    const authorizations = new Set<string>();
    fc.assert(
      fc.property(processSetup(), processSteps(), (setup, steps) => {
        const model = new GenerationProcessModel(setup);
        for (const step of steps) model.apply(step);
        model.quiesce();
        for (const a of model.accounts)
          for (const e of a.events) {
            seen.add(e.type);
            if (e.type === 'FundsReserved') authorizations.add(e.data.authorization);
          }
        for (const j of model.jobs.values()) for (const e of j.events) seen.add(e.type);
      }),
      { numRuns: 200, seed: 2027 },
    );
    expect([...authorizations].sort()).toEqual(['auto_approved', 'plan_approved', 'quote_approved']);
    expect([...seen].sort()).toEqual(
      [
        'BudgetApproved',
        'FundsReserved',
        'GenerationCharged',
        'GenerationCompleted',
        'GenerationFailed',
        'GenerationProgressed',
        'GenerationRefunded',
        'GenerationRequested',
        'GenerationSubmissionStarted',
        'GenerationSubmitted',
        'JobCharged',
        'JobRefunded',
        'LimitsSet',
        'QuoteApproved',
        'QuoteIssued',
        'ReservationReleased',
      ].sort(),
    );
  });
});
