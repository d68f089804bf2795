import { DomainError, assertNever, type Decider } from '@lomo/domain';
import { deciderSpec } from './given-when-then';

// A tiny switch decider to prove the harness itself: it must pass on the right events and fail
// on wrong ones, or every domain test written with it would prove nothing.
type Cmd = { type: 'TurnOn' } | { type: 'TurnOff' };
type Evt = { type: 'TurnedOn' } | { type: 'TurnedOff' };
type State = { status: 'off' } | { status: 'on' };

const light: Decider<Cmd, Evt, State> = {
  initialState: () => ({ status: 'off' }),
  evolve: (_s, e) => (e.type === 'TurnedOn' ? { status: 'on' } : { status: 'off' }),
  decide: (c, s) => {
    switch (c.type) {
      case 'TurnOn':
        if (s.status === 'on') throw new DomainError('ALREADY_ON', 'the light is on');
        return [{ type: 'TurnedOn' }];
      case 'TurnOff':
        return s.status === 'on' ? [{ type: 'TurnedOff' }] : [];
      default:
        return assertNever(c, 'command');
    }
  },
};
const { given } = deciderSpec(light);

describe('given/when/then harness', () => {
  it('passes when the decided events match', () => {
    given([])
      .when({ type: 'TurnOn' })
      .then([{ type: 'TurnedOn' }]);
    given([{ type: 'TurnedOn' }])
      .when({ type: 'TurnOff' })
      .then([{ type: 'TurnedOff' }]);
  });

  it('fails when the decided events differ', () => {
    expect(() => given([]).when({ type: 'TurnOn' }).then([])).toThrow();
  });

  it('thenThrows matches the refusal code and fails when nothing is thrown', () => {
    given([{ type: 'TurnedOn' }])
      .when({ type: 'TurnOn' })
      .thenThrows('ALREADY_ON');
    expect(() => given([]).when({ type: 'TurnOn' }).thenThrows('ALREADY_ON')).toThrow();
  });
});
