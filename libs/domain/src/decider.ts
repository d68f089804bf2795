/**
 * A pure decider (cf. Emmett): state is folded from events with `evolve`; a command is answered
 * with new events by `decide`, or refused by throwing a typed DomainError. No I/O, no clock:
 * time and ids arrive inside the command.
 */
export interface Decider<Command, Event, State> {
  initialState: () => State;
  decide: (command: Command, state: State) => Event[];
  evolve: (state: State, event: Event) => State;
  /**
   * Optional: folds several events at once to the same state as `evolve` one by one, for deciders
   * whose state is large enough that copying it per event would make a fold quadratic (memory).
   */
  foldAll?: (state: State, events: readonly Event[]) => State;
}

export const fold = <Event, State>(
  decider: Pick<Decider<never, Event, State>, 'initialState' | 'evolve' | 'foldAll'>,
  events: readonly Event[],
): State =>
  decider.foldAll
    ? decider.foldAll(decider.initialState(), events)
    : events.reduce(decider.evolve, decider.initialState());

/** A refusal with a stable code that callers (and the API) match on. */
export class DomainError extends Error {
  readonly retriable = false;
  constructor(
    readonly code: string,
    message: string,
  ) {
    super(message);
    this.name = 'DomainError';
  }
}

/** Ends a switch over a discriminated union: adding a variant without handling it fails to compile. */
export function assertNever(value: never, what = 'value'): never {
  throw new Error(`Unhandled ${what}: ${JSON.stringify(value)}`);
}
