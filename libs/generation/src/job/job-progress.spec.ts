import { at } from '../testing';
import { PROGRESS_PERSIST_INTERVAL_MS, shouldPersistProgress } from './job-progress';

describe('shouldPersistProgress: at most one progress event per job per second, always the terminal ones', () => {
  const last = { progress: 40, status: 'processing' as const, at: at(10) };

  it('the first report of a job is persisted', () => {
    expect(shouldPersistProgress(null, { progress: 0, status: 'queued' }, at(0))).toBe(true);
  });

  it('a forward report within a second of the last persisted one is coalesced away', () => {
    expect(shouldPersistProgress(last, { progress: 45, status: 'processing' }, at(10.5))).toBe(false);
    expect(shouldPersistProgress(last, { progress: 45, status: 'processing' }, at(10.999))).toBe(false);
  });

  it('a forward report a second or more after the last persisted one is persisted', () => {
    expect(PROGRESS_PERSIST_INTERVAL_MS).toBe(1000);
    expect(shouldPersistProgress(last, { progress: 45, status: 'processing' }, at(11))).toBe(true);
  });

  it('a report that would not move the job forward is never persisted, however late', () => {
    expect(shouldPersistProgress(last, { progress: 40, status: 'processing' }, at(60))).toBe(false);
    expect(shouldPersistProgress(last, { progress: 30, status: 'processing' }, at(60))).toBe(false);
    expect(shouldPersistProgress(last, { progress: 40, status: 'queued' }, at(60))).toBe(false);
  });

  it('terminal reports (completed, failed, cancelled) are always persisted, even within the second', () => {
    for (const status of ['completed', 'failed', 'cancelled'] as const)
      expect(shouldPersistProgress(last, { progress: 40, status }, at(10.1))).toBe(true);
  });

  it('a flood of ticks persists one a second', () => {
    let persisted: { progress: number; status: 'processing'; at: string } | null = null;
    let count = 0;
    for (let tick = 0; tick < 100; tick += 1) {
      // 10 ticks a second for 10 seconds, progress 1% per tick.
      const now = at(tick / 10);
      const incoming = { progress: tick, status: 'processing' as const };
      if (shouldPersistProgress(persisted, incoming, now)) {
        persisted = { ...incoming, at: now };
        count += 1;
      }
    }
    expect(count).toBe(10);
  });
});
