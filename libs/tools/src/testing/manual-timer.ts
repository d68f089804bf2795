import type { Clock } from '@lomo/contracts';
import type { CancelTimer, Timer } from '../starter/export/timer';

interface Scheduled {
  id: number;
  dueAt: number;
  callback: () => void;
}

/** A clock and a timer that move only when the test says so; callbacks fire in due order. */
export class ManualTimer implements Clock, Timer {
  private current: number;
  private nextId = 1;
  private scheduled: Scheduled[] = [];

  constructor(start: string | Date = '2026-11-30T00:00:00.000Z') {
    this.current = new Date(start).getTime();
  }

  now(): Date {
    return new Date(this.current);
  }

  schedule(delayMs: number, callback: () => void): CancelTimer {
    const entry = { id: this.nextId++, dueAt: this.current + Math.max(0, delayMs), callback };
    this.scheduled.push(entry);
    return () => {
      this.scheduled = this.scheduled.filter((s) => s.id !== entry.id);
    };
  }

  /** Moves time forward, firing every callback that falls due (including ones scheduled meanwhile). */
  advance(ms: number): number {
    const until = this.current + ms;
    let fired = 0;
    for (;;) {
      const next = this.scheduled.filter((s) => s.dueAt <= until).sort((a, b) => a.dueAt - b.dueAt || a.id - b.id)[0];
      if (!next) break;
      this.scheduled = this.scheduled.filter((s) => s.id !== next.id);
      this.current = Math.max(this.current, next.dueAt);
      next.callback();
      fired += 1;
    }
    this.current = until;
    return fired;
  }

  /** Callbacks not yet fired. */
  get pendingCount(): number {
    return this.scheduled.length;
  }
}
