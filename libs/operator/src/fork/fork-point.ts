import { BadPositionError } from '../errors';

/** Where a fork is cut: a revision of the task's stream, or a committed step of one of its turns. */
export type ForkPoint = { kind: 'revision'; revision: number } | { kind: 'step'; turnId: string; step: number };

const REVISION = /^(0|[1-9][0-9]{0,9})$/;
const STEP = /^([0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}):([1-9][0-9]{0,5})$/;

/** `--at 12` (a task stream revision) or `--at <turnId>:<step>` (the task as that step committed). */
export function parseForkPoint(value: string): ForkPoint {
  const trimmed = value.trim();
  if (REVISION.test(trimmed)) return { kind: 'revision', revision: Number(trimmed) };
  const step = STEP.exec(trimmed);
  if (step !== null) return { kind: 'step', turnId: step[1], step: Number(step[2]) };
  throw new BadPositionError(value, 'expected a task stream revision (12) or a committed step (<turnId>:<step>)');
}

export const describeForkPoint = (point: ForkPoint): string =>
  point.kind === 'revision' ? `revision ${point.revision}` : `step ${point.step} of turn ${point.turnId}`;
