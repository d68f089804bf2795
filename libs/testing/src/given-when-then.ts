import type { Decider } from '@lomo/domain';

/**
 * Domain tests read `given(events).when(command).then(events)` or `.thenThrows(code)`.
 */
export function deciderSpec<C, E, S>(decider: Decider<C, E, S>) {
  return {
    given: (events: readonly E[]) => ({
      when: (command: C) => {
        const run = () => decider.decide(command, events.reduce(decider.evolve, decider.initialState()));
        return {
          then: (expected: readonly E[]) => expect(run()).toEqual(expected),
          thenThrows: (code: string) => {
            let thrown: unknown;
            try {
              run();
            } catch (e) {
              thrown = e;
            }
            expect(thrown).toMatchObject({ code });
          },
        };
      },
    }),
  };
}
