import fc from 'fast-check';
import { eventRegistry, type StreamCategory } from '@lomo/contracts';
import { DomainError, type Decider } from '@lomo/domain';

/**
 * Builders for a decider's command arbitraries: `cmd<CreateTask>({ type: fc.constant('CreateTask'), ... })`
 * is an arbitrary of the command union, `weighted(n, arbitrary)` a weighted choice for fc.oneof.
 */
export function commandArbitraries<Command>() {
  return {
    cmd: <C extends Command>(fields: { [K in keyof C]: fc.Arbitrary<C[K]> }) =>
      // fc.record's inferred type loses the literal `type`; the fields' arbitraries already match C.
      fc.record(fields) as unknown as fc.Arbitrary<Command>,
    weighted: (weight: number, arbitrary: fc.Arbitrary<Command>) => ({ weight, arbitrary }),
  };
}

/** The decider's list of event types is exactly the registry's events of that stream category. */
export function expectEventTypesOfCategory(category: StreamCategory, eventTypes: readonly string[]): void {
  const registered = eventRegistry
    .all()
    .filter((d) => d.category === category)
    .map((d) => d.type);
  expect([...eventTypes].sort()).toEqual([...registered].sort());
}

export interface DecidedEventsCheck<C, E extends { type: string; data: unknown }, S> {
  decider: Decider<C, E, S>;
  /** Every event type of the stream: the sequences must produce each at least once. */
  eventTypes: readonly string[];
  /** The command that starts each sequence. */
  first: fc.Arbitrary<C>;
  /** The commands that follow it (5 to 60 of them). */
  command: fc.Arbitrary<C>;
  /** Rewrites a command against the current state before it is decided. */
  prepare?: (command: C, state: S) => C;
  /** Checked on each event, with the state before and after it. */
  afterEvent?: (before: S, event: E, after: S) => void;
  /** Checked after each command the decider accepted, on the state its events led to. */
  afterCommand?: (state: S) => void;
  run: { numRuns: number; seed: number };
}

/**
 * Runs random command sequences through the decider: a command is either refused with a typed
 * DomainError or decided into events that each parse with their contract schema in the registry.
 */
export function checkDecidedEvents<C, E extends { type: string; data: unknown }, S>(
  check: DecidedEventsCheck<C, E, S>,
): void {
  const { decider } = check;
  const produced = new Set<string>();
  fc.assert(
    fc.property(check.first, fc.array(check.command, { minLength: 5, maxLength: 60, size: 'max' }), (first, rest) => {
      let state = decider.initialState();
      for (const next of [first, ...rest]) {
        let events: E[] = [];
        try {
          events = decider.decide(check.prepare ? check.prepare(next, state) : next, state);
        } catch (e) {
          // Refusals are typed, never crashes.
          expect(e).toBeInstanceOf(DomainError);
          continue;
        }
        for (const event of events) {
          const parsed = eventRegistry.get(event.type)?.schema.safeParse(event.data);
          expect({ type: event.type, issues: parsed?.error?.issues ?? [] }).toEqual({ type: event.type, issues: [] });
          produced.add(event.type);
          const after = decider.evolve(state, event);
          check.afterEvent?.(state, event, after);
          state = after;
        }
        check.afterCommand?.(state);
      }
    }),
    check.run,
  );
  // The sequences reach every event type, so the schema check covered them all.
  expect([...produced].sort()).toEqual([...check.eventTypes].sort());
}
