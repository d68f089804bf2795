import { MongoNetworkError, MongoNetworkTimeoutError, MongoServerError } from 'mongodb';
import { isIdDuplicate, mapMongoError } from './mongo-errors';

// The driver's own error classes, shaped as the servers send them.
const serverError = (fields: Record<string, unknown>) => new MongoServerError({ ok: 0, errmsg: 'failed', ...fields });

describe('mapMongoError', () => {
  it('maps a MongoDB duplicate key to a unique violation naming the fields without the body prefix', () => {
    const error = serverError({ code: 11000, errmsg: 'E11000 duplicate key', keyPattern: { 'd.email': 1 } });
    expect(mapMongoError(error, 'users')).toMatchObject({
      code: 'DOCUMENT_UNIQUE_VIOLATION',
      retriable: false,
      collection: 'users',
      fields: ['email'],
    });
    expect(isIdDuplicate(error)).toBe(false);
    expect(isIdDuplicate(serverError({ code: 11000, keyPattern: { _id: 1 } }))).toBe(true);
  });

  it('maps FerretDB duplicate keys, which name no index, and its InternalError for SQLite UNIQUE failures', () => {
    const ferretDuplicate = serverError({ code: 11000, errmsg: 'E11000 duplicate key error collection: db.users' });
    expect(mapMongoError(ferretDuplicate, 'users')).toMatchObject({
      code: 'DOCUMENT_UNIQUE_VIOLATION',
      fields: undefined,
    });
    expect(isIdDuplicate(ferretDuplicate)).toBeUndefined();
    const ferretUpdate = serverError({
      code: 1,
      errmsg: "constraint failed: UNIQUE constraint failed: index 'idx_70_b273aea2_ux:workspaceId:1,key:-1' (2067)",
    });
    expect(mapMongoError(ferretUpdate, 'users')).toMatchObject({
      code: 'DOCUMENT_UNIQUE_VIOLATION',
      fields: ['workspaceId', 'key'],
    });
    expect(mapMongoError(serverError({ code: 1, errmsg: 'something else' }), 'users')).toBeInstanceOf(MongoServerError);
  });

  it.each([
    ['network error', new MongoNetworkError('connection 1 to 127.0.0.1:27017 closed')],
    ['network timeout', new MongoNetworkTimeoutError('connection 2 to 127.0.0.1:27017 timed out')],
    ['primary stepped down', serverError({ code: 189, codeName: 'PrimarySteppedDown' })],
    ['shutdown in progress', serverError({ code: 91, codeName: 'ShutdownInProgress' })],
    ['not writable primary', serverError({ code: 10107, codeName: 'NotWritablePrimary' })],
  ])('maps %s to DOCUMENT_STORE_UNAVAILABLE (retriable)', (_label, error) => {
    expect(mapMongoError(error, 'c')).toMatchObject({ code: 'DOCUMENT_STORE_UNAVAILABLE', retriable: true });
  });

  it('passes other errors through unchanged', () => {
    const bad = serverError({ code: 2, codeName: 'BadValue' });
    expect(mapMongoError(bad, 'c')).toBe(bad);
    const plain = new TypeError('x');
    expect(mapMongoError(plain, 'c')).toBe(plain);
  });
});
