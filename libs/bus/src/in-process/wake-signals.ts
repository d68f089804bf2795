import { EventEmitter } from 'node:events';
import * as path from 'node:path';

/**
 * Same-process wake-ups: a publish through any bus on a file wakes the consumers of every bus on
 * that file in this process at once, so they need not wait for their poll. Other processes
 * sharing the file are reached by polling only.
 */
export class WakeSignals {
  private readonly emitter = new EventEmitter();

  constructor() {
    // One listener per consumer instance; dozens are normal.
    this.emitter.setMaxListeners(0);
  }

  published(topic: string): void {
    this.emitter.emit('published', topic);
  }

  groupChanged(groupId: string): void {
    this.emitter.emit('group', groupId);
  }

  onPublished(listener: (topic: string) => void): () => void {
    this.emitter.on('published', listener);
    return () => this.emitter.off('published', listener);
  }

  onGroupChanged(listener: (groupId: string) => void): () => void {
    this.emitter.on('group', listener);
    return () => this.emitter.off('group', listener);
  }
}

const shared = new Map<string, { signals: WakeSignals; users: number }>();

/** The signals of a file, shared by every log opened on it in this process until released. */
export function acquireWakeSignals(filename: string): { signals: WakeSignals; release: () => void } {
  if (filename === ':memory:') return { signals: new WakeSignals(), release: () => undefined };
  const key = path.resolve(filename);
  let entry = shared.get(key);
  if (!entry) {
    entry = { signals: new WakeSignals(), users: 0 };
    shared.set(key, entry);
  }
  entry.users += 1;
  const held = entry;
  let released = false;
  return {
    signals: held.signals,
    release: () => {
      if (released) return;
      released = true;
      held.users -= 1;
      if (held.users === 0 && shared.get(key) === held) shared.delete(key);
    },
  };
}
