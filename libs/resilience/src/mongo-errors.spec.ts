import { asMongoError, isMongoDuplicateKey, isMongoUnavailable } from './mongo-errors';

const driverError = (name: string, extra: Record<string, unknown> = {}) =>
  Object.assign(new Error(`${name} happened`), { name, ...extra });

describe('MongoDB error classification', () => {
  it('calls network, selection and pool errors unavailable', () => {
    for (const name of ['MongoNetworkError', 'MongoServerSelectionError', 'MongoPoolClearedError']) {
      expect(isMongoUnavailable(driverError(name))).toBe(true);
    }
  });

  it('calls failover and shutdown server codes, and retryable-write labels, unavailable', () => {
    expect(isMongoUnavailable(driverError('MongoServerError', { code: 11600 }))).toBe(true);
    expect(isMongoUnavailable(driverError('MongoServerError', { code: 91 }))).toBe(true);
    const labelled = driverError('MongoServerError', {
      code: 2,
      hasErrorLabel: (l: string) => l === 'RetryableWriteError',
    });
    expect(isMongoUnavailable(labelled)).toBe(true);
  });

  it('leaves other server errors and non-driver errors alone', () => {
    expect(isMongoUnavailable(driverError('MongoServerError', { code: 2 }))).toBe(false);
    expect(isMongoUnavailable(new Error('boom'))).toBe(false);
    expect(isMongoUnavailable('MongoNetworkError')).toBe(false);
    expect(asMongoError(new TypeError('x'))).toBeUndefined();
  });

  it('tells a duplicate key by its code', () => {
    expect(isMongoDuplicateKey(driverError('MongoServerError', { code: 11000 }))).toBe(true);
    expect(isMongoDuplicateKey(driverError('MongoBulkWriteError', { code: 11001 }))).toBe(true);
    expect(isMongoDuplicateKey(driverError('MongoServerError', { code: 2 }))).toBe(false);
  });
});
