import { ANY, BACKWARDS, END, FORWARDS, NO_STREAM, START, STREAM_EXISTS } from '@eventstore/db-client';
import type { ReadStreamOptions } from '../event-store.port';
import {
  fromClientCurrentRevision,
  fromClientRevision,
  toClientExpectedRevision,
  toClientStreamRead,
} from './esdb-revision';

describe('revisions between the port and the client', () => {
  it.each([
    ['any', ANY],
    ['no_stream', NO_STREAM],
    ['stream_exists', STREAM_EXISTS],
    [0, 0n],
    [41, 41n],
    [Number.MAX_SAFE_INTEGER, 9007199254740991n],
  ] as const)('expected revision %p -> %p', (ours, theirs) => {
    expect(toClientExpectedRevision(ours)).toBe(theirs);
  });

  it('reads server revisions as safe integers and refuses what is not one', () => {
    expect(fromClientRevision(0n)).toBe(0);
    expect(fromClientRevision(9007199254740991n)).toBe(Number.MAX_SAFE_INTEGER);
    expect(() => fromClientRevision(9007199254740992n)).toThrow(RangeError);
    expect(() => fromClientRevision(-1n)).toThrow(RangeError);
  });

  it('reads the actual revision of a conflict, absent stream included', () => {
    expect(fromClientCurrentRevision(NO_STREAM)).toBe('no_stream');
    expect(fromClientCurrentRevision(-1n)).toBe('no_stream');
    expect(fromClientCurrentRevision(12n)).toBe(12);
  });

  it.each<[string, ReadStreamOptions, ReturnType<typeof toClientStreamRead>]>([
    ['the default', {}, { direction: FORWARDS, fromRevision: START, maxCount: Number.MAX_SAFE_INTEGER }],
    [
      'forwards from a revision',
      { fromRevision: 3, maxCount: 2 },
      { direction: FORWARDS, fromRevision: 3n, maxCount: 2 },
    ],
    [
      "forwards from 'end': the last event",
      { fromRevision: 'end', maxCount: 5 },
      { direction: BACKWARDS, fromRevision: END, maxCount: 1 },
    ],
    [
      'backwards by default, from the last event',
      { direction: 'backwards' },
      { direction: BACKWARDS, fromRevision: END, maxCount: Number.MAX_SAFE_INTEGER },
    ],
    [
      "backwards from 'start': revision 0 as a number",
      { direction: 'backwards', fromRevision: 'start' },
      { direction: BACKWARDS, fromRevision: 0n, maxCount: Number.MAX_SAFE_INTEGER },
    ],
    [
      'backwards from a revision',
      { direction: 'backwards', fromRevision: 3, maxCount: 2 },
      { direction: BACKWARDS, fromRevision: 3n, maxCount: 2 },
    ],
  ])('stream read options: %s', (_name, options, expected) => {
    expect(toClientStreamRead(options)).toEqual(expected);
  });
});
