import type { RegexFilter, PrefixesFilter } from '@eventstore/db-client';
import { StreamNames } from './stream-names';

describe('StreamNames', () => {
  it('without a namespace, stream ids are the server names and only contract categories are ours', () => {
    const names = new StreamNames();
    expect(names.physical('task-1')).toBe('task-1');
    expect(names.logical('task-1')).toBe('task-1');
    expect(names.logical('main-ws1.u1')).toBe('main-ws1.u1');
    for (const foreign of ['$stats-127.0.0.1:2113', '$$task-1', '$ce-task', 'orders-1', 'ns/task-1', 'Task-1']) {
      expect(names.logical(foreign)).toBeUndefined();
    }
    const filter = names.serverFilter() as RegexFilter;
    expect(filter.filterOn).toBe('streamName');
    const regex = new RegExp(filter.regex);
    expect(['task-1', 'turn-x', 'main-ws1.u1', 'generation-j'].every((s) => regex.test(s))).toBe(true);
    expect(['$ce-task', '$$task-1', 'orders-1', 'tasks-1'].some((s) => regex.test(s))).toBe(false);
  });

  it('with a namespace, only that namespace is ours, however similar another one looks', () => {
    const names = new StreamNames('run-a');
    expect(names.physical('turn-7')).toBe('run-a/turn-7');
    expect(names.logical('run-a/turn-7')).toBe('turn-7');
    for (const foreign of ['turn-7', 'run-ab/turn-7', 'run-a/run-a/turn-7', '$$run-a/turn-7', 'run-a/orders-1']) {
      expect(names.logical(foreign)).toBeUndefined();
    }
    expect(names.serverFilter()).toMatchObject({
      filterOn: 'streamName',
      prefixes: ['run-a/'],
    } satisfies Partial<PrefixesFilter>);
  });

  it('checkpoint holders can never be read as streams of events', () => {
    for (const names of [new StreamNames(), new StreamNames('ns')]) {
      const holder = names.checkpointHolder('projector.tasks');
      expect(holder).toMatch(/lomo-checkpoint@projector\.tasks$/);
      expect(names.logical(holder)).toBeUndefined();
    }
  });

  it('refuses an invalid namespace (ConfigError) and an invalid subscriber id (ValidationError)', () => {
    expect(() => new StreamNames('Has/Slash')).toThrow(expect.objectContaining({ code: 'CONFIG_INVALID' }));
    expect(() => new StreamNames('')).toThrow(expect.objectContaining({ code: 'CONFIG_INVALID' }));
    expect(() => new StreamNames().checkpointHolder('a b')).toThrow(
      expect.objectContaining({ code: 'VALIDATION_FAILED' }),
    );
  });
});
