import { OPERATOR_READ_MESSAGE, type Caller } from '@lomo/auth';
import { silentLogger, type Logger } from '@lomo/observability';
import { requireMemoryOwner, requireMemoryRead } from './memory-access';

// Whose memory each token kind reads and changes, written out row by row (not computed with the
// policy), so a change to the policy or to these helpers fails a row.
const caller = (kind: Caller['kind'], workspaceId: string, userId: string): Caller => ({
  tokenId: `t-${userId}`,
  tokenName: userId,
  workspaceId,
  userId,
  kind,
});

const alice = caller('person', 'ws1', 'u1');
const rows: Array<[string, Caller, { workspaceId?: string; userId?: string }, 'allowed' | 'FORBIDDEN']> = [
  ['a person, their own (by default)', alice, {}, 'allowed'],
  ['a person, their own (named)', alice, { workspaceId: 'ws1', userId: 'u1' }, 'allowed'],
  ['a person, another person of the workspace', alice, { userId: 'u2' }, 'FORBIDDEN'],
  ['a person, their user id in another workspace', alice, { workspaceId: 'ws2' }, 'FORBIDDEN'],
  ['an integration, its own user', caller('integration', 'ws1', 'ci'), {}, 'FORBIDDEN'],
  ['an integration, a person of the workspace', caller('integration', 'ws1', 'ci'), { userId: 'u1' }, 'FORBIDDEN'],
  [
    'an operator, a person of another workspace',
    caller('operator', 'support', 'sam'),
    { workspaceId: 'ws1', userId: 'u1' },
    'allowed',
  ],
];

describe('requireMemoryRead', () => {
  it.each(rows)('%s', (_who, who, asked, expected) => {
    const read = () => requireMemoryRead(who, asked, silentLogger, 'memories');
    if (expected === 'allowed')
      expect(read()).toEqual({ workspaceId: asked.workspaceId ?? who.workspaceId, userId: asked.userId ?? who.userId });
    else expect(read).toThrow(expect.objectContaining({ code: expected }));
  });

  it('logs the operator’s reads with the stream read, and only theirs', () => {
    const lines: Array<{ context: Record<string, unknown>; message: string }> = [];
    const logger: Logger = { ...silentLogger, info: (context, message) => void lines.push({ context, message }) };
    for (const [, who, asked, expected] of rows)
      if (expected === 'allowed') requireMemoryRead(who, asked, logger, 'memory');
    expect(lines.filter((l) => l.message === OPERATOR_READ_MESSAGE).map((l) => l.context)).toEqual([
      expect.objectContaining({ tokenId: 't-sam', workspaceId: 'ws1', streamId: 'memory-ws1.u1', path: 'memory' }),
    ]);
  });
});

describe('requireMemoryOwner', () => {
  it('lets a person change their own memory, and refuses integrations and operators', () => {
    expect(requireMemoryOwner(alice, 'forgets')).toEqual({ workspaceId: 'ws1', userId: 'u1' });
    for (const kind of ['integration', 'operator'] as const)
      expect(() => requireMemoryOwner(caller(kind, 'ws1', 'x'), 'forgets')).toThrow(
        expect.objectContaining({ code: 'FORBIDDEN', details: { tokenKind: kind } }),
      );
  });
});
