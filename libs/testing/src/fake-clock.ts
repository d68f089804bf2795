import type { Clock, IdGenerator } from '@lomo/contracts';

/** A clock that moves only when the test says so. */
export class FakeClock implements Clock {
  private current: number;

  constructor(start: string | Date = '2026-11-30T00:00:00.000Z') {
    this.current = new Date(start).getTime();
  }

  now(): Date {
    return new Date(this.current);
  }

  advance(ms: number): void {
    this.current += ms;
  }

  set(at: string | Date): void {
    this.current = new Date(at).getTime();
  }
}

/** Predictable UUIDs: 00000000-0000-4000-8000-000000000001, ...02, ... */
export class SequentialIds implements IdGenerator {
  private next = 1;

  uuid(): string {
    const n = (this.next++).toString(16).padStart(12, '0');
    return `00000000-0000-4000-8000-${n}`;
  }
}
