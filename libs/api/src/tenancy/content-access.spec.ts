import { OPERATOR_READ_MESSAGE, type Caller } from '@lomo/auth';
import { silentLogger, type Logger } from '@lomo/observability';
import { requireContentRead } from './content-access';

// Who reads a step's prompt or a task's history summaries: written out per token kind, not
// computed with the policy, so a change to either fails a row.
const caller = (kind: Caller['kind'], workspaceId: string, userId: string): Caller => ({
  tokenId: `t-${userId}`,
  tokenName: userId,
  workspaceId,
  userId,
  kind,
});

const rows: Array<[string, Caller, 'allowed' | 'FORBIDDEN' | 'NOT_FOUND']> = [
  ['a person of the workspace', caller('person', 'ws1', 'u1'), 'allowed'],
  ['another person of the workspace', caller('person', 'ws1', 'u2'), 'allowed'],
  ['an integration of the workspace', caller('integration', 'ws1', 'ci'), 'FORBIDDEN'],
  ['a person of another workspace', caller('person', 'ws2', 'u3'), 'NOT_FOUND'],
  ['an integration of another workspace', caller('integration', 'ws2', 'ci2'), 'NOT_FOUND'],
  ['an operator (a workspace of its own)', caller('operator', 'support', 'sam'), 'allowed'],
];

const target = (eventType: string) => ({
  streamId: 'turn-r1',
  workspaceId: 'ws1',
  eventType,
  what: 'turn',
  id: 'r1',
});

describe('requireContentRead', () => {
  it.each(rows)('%s', (_who, who, expected) => {
    const read = () => requireContentRead(who, target('ModelStepCommitted'), silentLogger, 'TurnStep.prompt');
    if (expected === 'allowed') expect(read).not.toThrow();
    else expect(read).toThrow(expect.objectContaining({ code: expected }));
  });

  it('a refusal for another workspace is the one an unknown id gets: it names only the id asked for', () => {
    const outsider = caller('person', 'ws2', 'u3');
    expect(() => requireContentRead(outsider, target('ModelStepCommitted'), silentLogger, 'TurnStep.prompt')).toThrow(
      expect.objectContaining({ code: 'NOT_FOUND', message: 'No turn r1', details: { turnId: 'r1' } }),
    );
  });

  it('logs the operator’s reads, and only theirs', () => {
    const lines: Array<{ context: Record<string, unknown>; message: string }> = [];
    const logger: Logger = { ...silentLogger, info: (context, message) => void lines.push({ context, message }) };
    for (const [, who, expected] of rows)
      if (expected === 'allowed') requireContentRead(who, target('HistorySegmentAppended'), logger, 'path');
    expect(lines.filter((l) => l.message === OPERATOR_READ_MESSAGE).map((l) => l.context)).toEqual([
      expect.objectContaining({ tokenId: 't-sam', workspaceId: 'ws1', streamId: 'turn-r1', path: 'path' }),
    ]);
  });
});
