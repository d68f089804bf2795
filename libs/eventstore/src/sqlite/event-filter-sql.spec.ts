import { compileFilter, prefixSuccessor } from './event-filter-sql';
import { formatPosition, parseFromPosition, parsePosition } from './sqlite-position';

describe('filter SQL', () => {
  it('turns each prefix into a half-open byte range', () => {
    expect(prefixSuccessor('task-')).toBe('task.');
    expect(prefixSuccessor('main-ws1.')).toBe('main-ws1/');
    const { sql, params } = compileFilter({ streamPrefixes: ['task-', 'main-ws1.'] });
    expect(sql).toBe(' AND ((+stream_id >= ? AND +stream_id < ?) OR (+stream_id >= ? AND +stream_id < ?))');
    expect(params).toEqual(['task-', 'task.', 'main-ws1.', 'main-ws1/']);
  });

  it('adds former type names so old events match a filter on the current name', () => {
    expect(compileFilter({ eventTypes: ['TurnLeaseRenewed'] }).params).toEqual([
      'TurnLeaseRenewed',
      'TurnLeaseExtended',
    ]);
  });

  it('drops constraints that match everything', () => {
    expect(compileFilter(undefined)).toEqual({ sql: '', params: [] });
    expect(compileFilter({ streamPrefixes: ['turn-', ''], eventTypes: [] })).toEqual({ sql: '', params: [] });
  });

  it('refuses oversized filters', () => {
    expect(() => compileFilter({ eventTypes: Array.from({ length: 101 }, (_, i) => `T${i}`) })).toThrow(
      expect.objectContaining({ code: 'VALIDATION_FAILED' }),
    );
  });
});

describe('positions', () => {
  it('round-trip and refuse anything this store did not produce', () => {
    expect(parsePosition(formatPosition(42))).toBe(42);
    expect(parseFromPosition('start')).toBe(0);
    expect(parseFromPosition(undefined)).toBe(0);
    for (const bad of ['', '-1', '01', '1.5', 'abc', '99999999999999999']) {
      expect(() => parsePosition(bad)).toThrow(expect.objectContaining({ code: 'VALIDATION_FAILED' }));
    }
  });
});
