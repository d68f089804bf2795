import { ManualTimer } from './manual-timer';

describe('ManualTimer', () => {
  it('fires callbacks in due order as time moves, including ones scheduled meanwhile', () => {
    const timer = new ManualTimer('2026-01-01T00:00:00.000Z');
    const fired: string[] = [];
    timer.schedule(300, () => fired.push('b'));
    timer.schedule(100, () => {
      fired.push('a');
      timer.schedule(50, () => fired.push('a2'));
    });
    expect(timer.advance(99)).toBe(0);
    expect(timer.advance(300)).toBe(3);
    expect(fired).toEqual(['a', 'a2', 'b']);
    expect(timer.now().toISOString()).toBe('2026-01-01T00:00:00.399Z');
  });

  it('does not fire a cancelled callback', () => {
    const timer = new ManualTimer();
    const cancel = timer.schedule(10, () => {
      throw new Error('must not fire');
    });
    cancel();
    expect(timer.advance(100)).toBe(0);
    expect(timer.pendingCount).toBe(0);
  });
});
