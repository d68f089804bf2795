import { feedFilter, storeFilter } from './feed-filter';

describe('event feed filter', () => {
  it('narrows main streams to the caller workspace and leaves other categories to the metadata check', () => {
    const filter = feedFilter({ categories: ['main', 'task', 'task'], types: ['TaskStopped'] });
    expect(storeFilter(filter, 'ws1')).toEqual({
      streamPrefixes: ['main-ws1.', 'task-'],
      eventTypes: ['TaskStopped'],
    });
    expect(storeFilter(feedFilter(undefined), 'ws1')).toEqual({});
  });

  it('refuses event types the contracts do not know', () => {
    expect(() => feedFilter({ types: ['TaskStoped'] })).toThrow(expect.objectContaining({ code: 'VALIDATION_FAILED' }));
  });
});
