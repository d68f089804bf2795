import { SearchIndexError } from '../search-index.errors';
import { mapMongoSearchError } from './mongo-search-errors';

const driverError = (name: string, code?: number) => Object.assign(new Error('boom'), { name, code });

describe('mapMongoSearchError', () => {
  it.each([
    ['a network error', driverError('MongoNetworkError'), 'SEARCH_UNAVAILABLE', true],
    ['server selection timing out', driverError('MongoServerSelectionError'), 'SEARCH_UNAVAILABLE', true],
    ['a node shutting down (code 91)', driverError('MongoServerError', 91), 'SEARCH_UNAVAILABLE', true],
    ['a bad query (code 2)', driverError('MongoServerError', 2), 'SEARCH_FAILED', false],
  ])('maps %s', (_name, error, code, retriable) => {
    const mapped = mapMongoSearchError(error, 'searchText');
    expect(mapped).toBeInstanceOf(SearchIndexError);
    expect(mapped).toMatchObject({ code, retriable });
  });

  it('passes our own and foreign errors through unchanged', () => {
    const ours = SearchIndexError.invalid('x');
    const foreign = new TypeError('x');
    expect(mapMongoSearchError(ours, 'upsert')).toBe(ours);
    expect(mapMongoSearchError(foreign, 'upsert')).toBe(foreign);
  });
});
