import type { Caller, TokenKind } from '@lomo/auth';
import { feedFilter, storeFilter } from './feed-filter';

const caller = (kind: TokenKind): Caller => ({ tokenId: 't', tokenName: 't', workspaceId: 'ws1', userId: 'u1', kind });

describe('event feed filter', () => {
  it('narrows main streams to the caller workspace and leaves other categories to the metadata check', () => {
    const filter = feedFilter({ categories: ['main', 'task', 'task'], types: ['TaskStopped'] });
    // An operator reads every person's main line of the workspace it names.
    expect(storeFilter(filter, caller('operator'), 'ws1')).toEqual({
      streamPrefixes: ['main-ws1.', 'task-'],
      eventTypes: ['TaskStopped'],
    });
    // A person, its own main line only; an integration, none, and only exposed types.
    expect(storeFilter(filter, caller('person'), 'ws1')).toEqual({
      streamPrefixes: ['main-ws1.u1', 'task-'],
      eventTypes: ['TaskStopped'],
    });
    expect(
      storeFilter(feedFilter({ categories: ['main', 'task'], types: ['BriefUpdated'] }), caller('integration'), 'ws1'),
    ).toMatchObject({ streamPrefixes: ['task-'] });
    expect(storeFilter(feedFilter(undefined), caller('person'), 'ws1')).toEqual({});
  });

  it('refuses event types the contracts do not know', () => {
    expect(() => feedFilter({ types: ['TaskStoped'] })).toThrow(expect.objectContaining({ code: 'VALIDATION_FAILED' }));
  });
});
