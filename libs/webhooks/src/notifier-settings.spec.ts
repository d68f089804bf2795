import { loadConfig } from '@lomo/config';
import { notifierSettings } from './notifier-settings';

const settingsFor = (env: Record<string, string>) =>
  notifierSettings(loadConfig({ LOMO_DATA_DIR: '/data', NODE_ENV: 'production', ...env }));

describe('notifier settings', () => {
  it('has production defaults: 8 attempts, https only, SQLite beside the other files', () => {
    expect(settingsFor({})).toMatchObject({
      maxAttempts: 8,
      production: true,
      httpAllowlist: [],
      sqlitePath: '/data/notifier.sqlite',
      disableOnGone: true,
    });
  });

  it('reads the allowlist, and a bad value stops the start naming the variable', () => {
    expect(settingsFor({ LOMO_WEBHOOK_HTTP_ALLOWLIST: '127.0.0.1,Hooks.Local' }).httpAllowlist).toEqual([
      '127.0.0.1',
      'hooks.local',
    ]);
    expect(() => settingsFor({ LOMO_WEBHOOK_MAX_ATTEMPTS: '0' })).toThrow(/LOMO_WEBHOOK_MAX_ATTEMPTS/);
    expect(() => settingsFor({ LOMO_WEBHOOK_BACKOFF_INITIAL_MS: '5000', LOMO_WEBHOOK_BACKOFF_MAX_MS: '10' })).toThrow(
      /LOMO_WEBHOOK_BACKOFF_MAX_MS/,
    );
  });
});
