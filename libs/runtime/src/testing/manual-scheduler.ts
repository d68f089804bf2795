import type { Scheduler } from '../timing/scheduler';

interface Entry {
  name: string;
  intervalMs: number;
  task: () => Promise<void>;
}

/** Tests fire repeating work by name, when the scenario calls for it. */
export class ManualScheduler implements Scheduler {
  private readonly entries = new Set<Entry>();

  every(name: string, intervalMs: number, task: () => Promise<void>): () => void {
    const entry = { name, intervalMs, task };
    this.entries.add(entry);
    return () => this.entries.delete(entry);
  }

  /** Runs every task whose name starts with `prefix`, once, and waits for them. */
  async fire(prefix: string): Promise<number> {
    const due = [...this.entries].filter((e) => e.name.startsWith(prefix));
    for (const entry of due) await entry.task();
    return due.length;
  }

  names(): string[] {
    return [...this.entries].map((e) => e.name);
  }
}
