import { loadConfig } from '@lomo/config';
import { apiSettings } from './api-settings';

const settingsFor = (env: Record<string, string>) => apiSettings(loadConfig({ LOMO_DATA_DIR: '/data', ...env }));

describe('apiSettings', () => {
  it('has safe defaults: limits on, introspection and the dev token off in production', () => {
    expect(settingsFor({ NODE_ENV: 'production' })).toMatchObject({
      authSqlitePath: '/data/auth.sqlite',
      maxBodyBytes: 100_000,
      maxBatch: 10,
      maxDepth: 12,
      maxCost: 10_000,
      maxAliases: 50,
      maxDirectives: 50,
      maxTokens: 5_000,
      rateLimit: { burst: 60, perSecond: 20 },
      ipRateLimit: { burst: 200, perSecond: 50 },
      trustProxy: 0,
      introspection: false,
      exposeInternals: false,
      hideSuggestions: true,
      devToken: undefined,
      consistencyTimeoutMs: 5_000,
    });
    expect(settingsFor({ NODE_ENV: 'development' })).toMatchObject({
      introspection: true,
      exposeInternals: false,
      hideSuggestions: false,
      devToken: { workspaceId: 'dev', userId: 'dev' },
    });
    expect(settingsFor({ NODE_ENV: 'test' }).exposeInternals).toBe(false);
  });

  it('sends stack traces only when LOMO_DEBUG_ERRORS=true, whatever NODE_ENV says', () => {
    expect(settingsFor({}).exposeInternals).toBe(false);
    expect(settingsFor({ LOMO_DEBUG_ERRORS: 'true' }).exposeInternals).toBe(true);
    expect(settingsFor({ NODE_ENV: 'production', LOMO_DEBUG_ERRORS: 'true' }).exposeInternals).toBe(true);
    expect(() => settingsFor({ LOMO_DEBUG_ERRORS: 'yes' })).toThrow(/LOMO_DEBUG_ERRORS/);
  });

  it('takes overrides, and a bad value stops the start naming the variable', () => {
    expect(
      settingsFor({ NODE_ENV: 'production', LOMO_API_INTROSPECTION: 'true', LOMO_API_MAX_BATCH: '3' }),
    ).toMatchObject({
      introspection: true,
      maxBatch: 3,
    });
    expect(() => settingsFor({ LOMO_API_MAX_DEPTH: 'deep' })).toThrow(/LOMO_API_MAX_DEPTH/);
  });
});
