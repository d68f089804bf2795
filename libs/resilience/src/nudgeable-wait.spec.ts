import { NudgeableWait } from './nudgeable-wait';

describe('NudgeableWait', () => {
  it('ends a wait at the first nudge', async () => {
    const waits = new NudgeableWait();
    const started = Date.now();
    const waiting = waits.wait(10_000);
    waits.nudge();
    await waiting;
    expect(Date.now() - started).toBeLessThan(1_000);
  });

  it('remembers a nudge that came during the round, until the next round begins', async () => {
    const waits = new NudgeableWait();
    waits.beginRound();
    waits.nudge();
    const started = Date.now();
    await waits.wait(10_000);
    expect(Date.now() - started).toBeLessThan(1_000);

    waits.beginRound();
    const slept = Date.now();
    await waits.wait(50);
    expect(Date.now() - slept).toBeGreaterThanOrEqual(45);
  });
});
