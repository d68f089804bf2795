/** A point in a task's history: one committed step of one of its turns. */
export interface StepPoint {
  turnId: string;
  step: number;
}

/** One committed step as its record tells what its prompt showed. */
export interface CommittedStep extends StepPoint {
  /**
   * The history segments its prompt showed (ModelStepCommitted.context.segments); every step
   * after what they cover was shown in full (libs/runtime/src/context/context-assembler.ts,
   * recentSteps). Absent on steps committed before context accounting: taken as having seen
   * every earlier step in full.
   */
  segments?: readonly string[];
  /** It relied on forgotten content itself: consumed a forgotten message or was shown a purged version. */
  direct: boolean;
}

export interface SegmentCover {
  segmentId: string;
  covers: { from: StepPoint; to: StepPoint };
}

const key = (p: StepPoint) => `${p.turnId}:${p.step}`;

/**
 * The steps a forgetting excludes from a task, closed over what later prompts showed (article
 * §7.3: the agent's own earlier outputs must not bring the forgotten back): a step relied on
 * forgotten content directly, or its prompt showed, in full or through a history segment that
 * summarizes it, a step excluded here. Only this forgetting's exclusions spread: a step left out
 * by an earlier forgetting was already a placeholder for every step committed after it, and the
 * steps committed before it were closed over then. Pure; by recorded provenance only, never by
 * reading the texts.
 *
 * `steps` in the task's order (its turns in order, each turn's steps in order).
 */
export function closeOverHistory(input: {
  steps: readonly CommittedStep[];
  segments: readonly SegmentCover[];
  /** Steps (`turnId:step`) other forgettings already excluded. */
  excludedBefore: ReadonlySet<string>;
}): StepPoint[] {
  const order = new Map(input.steps.map((s, i) => [key(s), i]));
  const covers = new Map(
    input.segments.flatMap((s) => {
      const from = order.get(key(s.covers.from));
      const to = order.get(key(s.covers.to));
      return from === undefined || to === undefined ? [] : [[s.segmentId, { from, to }] as const];
    }),
  );
  const excluded: number[] = [];
  const out: StepPoint[] = [];
  input.steps.forEach((step, index) => {
    const spreads = !input.excludedBefore.has(key(step));
    if (step.direct || (spreads && sawExcluded(step, index, covers, excluded))) {
      out.push({ turnId: step.turnId, step: step.step });
      if (spreads) excluded.push(index);
    }
  });
  return out;
}

function sawExcluded(
  step: CommittedStep,
  index: number,
  covers: ReadonlyMap<string, { from: number; to: number }>,
  excluded: readonly number[],
): boolean {
  if (excluded.length === 0) return false;
  const shown = (step.segments ?? []).flatMap((id) => {
    const range = covers.get(id);
    return range === undefined ? [] : [range];
  });
  const inFullFrom = step.segments === undefined ? 0 : Math.max(0, ...shown.map((r) => r.to + 1));
  return excluded.some((e) => (e >= inFullFrom && e < index) || shown.some((r) => e >= r.from && e <= r.to));
}
