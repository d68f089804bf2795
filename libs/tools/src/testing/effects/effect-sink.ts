import { appendFileSync, existsSync, readFileSync } from 'node:fs';

/** One real effect of one tool call. */
export interface EffectLine {
  idempotencyKey: string;
  tool: string;
  at: string;
}

export interface EffectSink {
  record(effect: EffectLine): Promise<void>;
}

/**
 * Effects as JSON lines in a side file. Each line goes out in one O_APPEND write, which the OS
 * does not interleave with other processes' appends of this size, so several processes can
 * share the file in multi-process crash tests.
 */
export class JsonlEffectSink implements EffectSink {
  constructor(readonly file: string) {}

  async record(effect: EffectLine): Promise<void> {
    appendFileSync(this.file, `${JSON.stringify(effect)}\n`, { flag: 'a' });
  }
}

/** Every complete line of an effect file; a line torn by a crash mid-write is skipped. */
export function readEffectLog(file: string): EffectLine[] {
  if (!existsSync(file)) return [];
  const lines: EffectLine[] = [];
  for (const text of readFileSync(file, 'utf8').split('\n')) {
    if (text.trim() === '') continue;
    try {
      const value: unknown = JSON.parse(text);
      if (isEffectLine(value)) lines.push(value);
    } catch {
      // The last line of a process killed mid-write: not an effect record.
    }
  }
  return lines;
}

/** How many times each idempotency key had a real effect: any count above 1 is a broken invariant. */
export function countEffectsByKey(file: string): Map<string, number> {
  const counts = new Map<string, number>();
  for (const line of readEffectLog(file)) counts.set(line.idempotencyKey, (counts.get(line.idempotencyKey) ?? 0) + 1);
  return counts;
}

function isEffectLine(value: unknown): value is EffectLine {
  if (typeof value !== 'object' || value === null) return false;
  const v = value as Record<string, unknown>;
  return typeof v.idempotencyKey === 'string' && typeof v.tool === 'string' && typeof v.at === 'string';
}
