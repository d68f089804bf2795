import { BadPositionError } from '../errors';
import { comparePositions } from '../positions';
import { parseStreamPoint } from './stream-point';

describe('parseStreamPoint', () => {
  it.each([
    ['12', { kind: 'revision', revision: 12 }],
    ['0', { kind: 'revision', revision: 0 }],
    ['pos:1042', { kind: 'position', position: '1042' }],
    ['pos:7:3', { kind: 'position', position: '7:3' }],
    ['2026-12-06T10:00:00Z', { kind: 'time', time: '2026-12-06T10:00:00.000Z' }],
    ['2026-12-06T11:00:00.250+01:00', { kind: 'time', time: '2026-12-06T10:00:00.250Z' }],
  ])('reads %s', (text, point) => {
    expect(parseStreamPoint(text)).toEqual(point);
  });

  it.each([
    '-1',
    'pos:',
    'yesterday',
    '2026-12-06',
    '2026-12-06T10:00:00',
    '2026-13-45T99:00:00Z',
    '1e3',
    '99999999999999999999',
  ])('refuses %s', (text) => {
    expect(() => parseStreamPoint(text)).toThrow(BadPositionError);
  });
});

describe('comparePositions', () => {
  it('orders SQLite and EventStoreDB positions as numbers, beyond 2^53 too', () => {
    expect(comparePositions('9', '10')).toBeLessThan(0);
    expect(comparePositions('10', '10')).toBe(0);
    expect(comparePositions('9007199254740993', '9007199254740992')).toBeGreaterThan(0);
    expect(comparePositions('5:9', '6:0')).toBeLessThan(0);
    expect(comparePositions('6:1', '6:0')).toBeGreaterThan(0);
  });

  it('says when two positions cannot be compared', () => {
    expect(comparePositions('10', '6:0')).toBeUndefined();
    expect(comparePositions('abc', '1')).toBeUndefined();
  });
});
