import { ConfigError } from '@lomo/contracts';
import { loadConfig } from './load-config';

const problemsOf = (env: Record<string, string>) => {
  try {
    loadConfig(env);
  } catch (error) {
    if (error instanceof ConfigError) return error.message;
    throw error;
  }
  return '';
};

describe('loadConfig: test control', () => {
  it('is off by default, with no faults and no mutations', () => {
    const c = loadConfig({});
    expect(c.LOMO_TEST_CONTROL).toBe('off');
    expect(c.LOMO_TEST_FAULTS).toEqual([]);
    expect(c.LOMO_TEST_MUTATIONS).toEqual([]);
  });

  it('reads the clock start and the switch lists when on', () => {
    const c = loadConfig({
      LOMO_TEST_CONTROL: 'on',
      NODE_ENV: 'test',
      LOMO_TEST_CLOCK_START: '2026-01-05T09:00:00.000Z',
      LOMO_TEST_FAULTS: 'lost_wakeups,duplicate_callbacks',
      LOMO_TEST_MUTATIONS: 'no_change_notice,no_change_notice',
    });
    expect(c.LOMO_TEST_CLOCK_START).toBe('2026-01-05T09:00:00.000Z');
    expect(c.LOMO_TEST_FAULTS).toEqual(['lost_wakeups', 'duplicate_callbacks']);
    expect(c.LOMO_TEST_MUTATIONS).toEqual(['no_change_notice']);
  });

  it('refuses test control when NODE_ENV=production', () => {
    expect(() => loadConfig({ LOMO_TEST_CONTROL: 'on', NODE_ENV: 'production' })).toThrow(ConfigError);
    expect(problemsOf({ LOMO_TEST_CONTROL: 'on', NODE_ENV: 'production' })).toMatch(
      /LOMO_TEST_CONTROL: test control .* is refused when NODE_ENV=production/,
    );
  });

  it('refuses the other LOMO_TEST_* variables unless test control is on', () => {
    for (const [variable, value] of [
      ['LOMO_TEST_CLOCK_START', '2026-01-05T09:00:00Z'],
      ['LOMO_TEST_FAULTS', 'lost_wakeups'],
      ['LOMO_TEST_MUTATIONS', 'no_budget_check'],
    ])
      expect(problemsOf({ [variable]: value })).toContain(`${variable}: needs LOMO_TEST_CONTROL=on`);
  });

  it('names unknown switches and lists the known ones', () => {
    const message = problemsOf({ LOMO_TEST_CONTROL: 'on', LOMO_TEST_MUTATIONS: 'no_fallback_card,no_seatbelt' });
    expect(message).toMatch(/LOMO_TEST_MUTATIONS: unknown no_seatbelt \(known: no_fallback_card, no_settled_check,/);
    expect(problemsOf({ LOMO_TEST_CONTROL: 'on', LOMO_TEST_FAULTS: 'slow_disk' })).toContain(
      'LOMO_TEST_FAULTS: unknown slow_disk (known: duplicate_callbacks, lost_callbacks, lost_wakeups, crash_after_media_order)',
    );
  });

  it('refuses a clock start that is not an ISO instant', () => {
    expect(problemsOf({ LOMO_TEST_CONTROL: 'on', LOMO_TEST_CLOCK_START: 'next tuesday' })).toContain(
      'LOMO_TEST_CLOCK_START',
    );
  });
});
