import type { Actor } from '@lomo/contracts';

/**
 * A domain event as deciders see it: type and data. `recordedBy` is the actor of the stored
 * event's metadata, set when an event is folded from the log (or by the writer that just appended
 * it); deciders whose rules depend on who wrote a fact read it (an approval the agent recorded
 * itself never authorizes: libs/domain/src/task/task-evolve.ts).
 */
export interface DomainEvent {
  type: string;
  data: unknown;
  recordedBy?: Actor;
}

/** What the command layer needs of a decider (libs/domain's Decider fits structurally). */
export interface FoldingDecider<C, E extends DomainEvent, S> {
  initialState: () => S;
  decide: (command: C, state: S) => E[];
  evolve: (state: S, event: E) => S;
  /** Optional batch fold, the same state as `evolve` one by one (libs/domain's Decider.foldAll). */
  foldAll?: (state: S, events: readonly E[]) => S;
}

/** The event types a decider folds; other types on its stream are skipped, not misread. */
export type KnownEventTypes<E extends DomainEvent> = readonly E['type'][];
