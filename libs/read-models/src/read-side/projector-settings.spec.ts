import { availableParallelism } from 'node:os';
import { loadConfig } from '@lomo/config';
import { projectorSettings } from './projector-settings';

describe('projector settings', () => {
  it('defaults to SQLite read models in the data directory, fed by the store in embedded mode', () => {
    expect(projectorSettings(loadConfig({ LOMO_DATA_DIR: '/data' }))).toEqual({
      mongodbUrl: undefined,
      mongodbDatabase: 'lomo',
      sqlitePath: '/data/read-models.sqlite',
      feed: 'store',
      sweepMs: 5_000,
      maxLagSeconds: 60,
      rebuildThreads: availableParallelism(),
    });
  });

  it('uses MongoDB when MONGODB_URL is set', () => {
    const settings = projectorSettings(
      loadConfig({ LOMO_DATA_DIR: '/data', MONGODB_URL: 'mongodb://127.0.0.1:27017', MONGODB_DATABASE: 'reads' }),
    );
    expect(settings).toMatchObject({ mongodbUrl: 'mongodb://127.0.0.1:27017', mongodbDatabase: 'reads' });
  });

  it('a bad value stops the start, naming every bad variable', () => {
    expect(() => loadConfig({ MONGODB_URL: 'http://nope', LOMO_PROJECTOR_FEED: 'carrier' })).toThrow(
      /MONGODB_URL.*LOMO_PROJECTOR_FEED|LOMO_PROJECTOR_FEED.*MONGODB_URL/,
    );
  });
});
