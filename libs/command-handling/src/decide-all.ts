import type { FoldingDecider, DomainEvent } from './domain-event';

/**
 * Decides several commands in order, each against the state the previous ones produced, so they
 * can be appended as one atomic batch at one expected revision. The state after the last command
 * is not computed: the writer folds what it appended anyway, and folding twice costs twice.
 */
export function decideAll<C, E extends DomainEvent, S>(
  decider: FoldingDecider<C, E, S>,
  state: S,
  commands: readonly C[],
): E[] {
  const events: E[] = [];
  let current = state;
  commands.forEach((command, i) => {
    const decided = decider.decide(command, current);
    if (i < commands.length - 1)
      current = decider.foldAll
        ? decider.foldAll(current, decided)
        : decided.reduce((state, event) => decider.evolve(state, event), current);
    events.push(...decided);
  });
  return events;
}
