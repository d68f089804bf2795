import type { AnyProjection } from '@lomo/read-models';
import { UnknownTargetError } from '../../errors';

/** The projections named (every one when none is), in the projector's order; an unknown name is refused. */
export function selectProjections(
  projections: readonly AnyProjection[],
  names: readonly string[] | undefined,
): AnyProjection[] {
  if (names === undefined || names.length === 0) return [...projections];
  for (const name of names) {
    if (!projections.some((p) => p.name === name)) throw new UnknownTargetError('projection', name);
  }
  return projections.filter((p) => names.includes(p.name));
}
