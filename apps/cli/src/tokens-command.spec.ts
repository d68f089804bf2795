import { ApiTokens, DocumentApiTokenStore } from '@lomo/auth';
import { SqliteDocumentStore } from '@lomo/read-models';
import { UsageError } from './parse-args';
import { runTokensCommand } from './tokens-command';

function capture() {
  const out: string[] = [];
  const err: string[] = [];
  return { io: { out: (l: string) => out.push(l), err: (l: string) => err.push(l) }, out, err };
}

describe('lomo tokens', () => {
  let store: DocumentApiTokenStore;
  let tokens: ApiTokens;
  beforeEach(() => {
    store = new DocumentApiTokenStore(new SqliteDocumentStore({ filename: ':memory:' }), { ownsDocuments: true });
    tokens = new ApiTokens(store);
  });
  afterEach(() => store.close());

  it('creates a token (secret shown once), lists it without the secret, and revokes it', async () => {
    const created = capture();
    expect(
      await runTokensCommand(['create', '--workspace', 'ws1', '--user', 'u1', '--name', 'ci'], tokens, created.io),
    ).toBe(0);
    const token = JSON.parse(created.out[0]) as { id: string; token: string; workspaceId: string; name: string };
    expect(token).toMatchObject({ workspaceId: 'ws1', name: 'ci', token: expect.stringMatching(/^lomo_/) });

    const listed = capture();
    expect(await runTokensCommand(['list', '--workspace', 'ws1'], tokens, listed.io)).toBe(0);
    expect(listed.out.map((l) => JSON.parse(l) as Record<string, unknown>)).toEqual([
      expect.objectContaining({ id: token.id, revokedAt: null }),
    ]);
    expect(listed.out.join('\n')).not.toContain(token.token);

    const revoked = capture();
    expect(await runTokensCommand(['revoke', token.id], tokens, revoked.io)).toBe(0);
    expect(JSON.parse(revoked.out[0])).toEqual({ id: token.id, outcome: 'revoked' });
    expect(await runTokensCommand(['revoke', 'no-such-id'], tokens, capture().io)).toBe(1);
  });

  it('creates person tokens unless --kind says otherwise, and refuses an unknown kind storing nothing', async () => {
    const person = capture();
    expect(await runTokensCommand(['create', '--workspace', 'ws1', '--user', 'u1'], tokens, person.io)).toBe(0);
    expect(JSON.parse(person.out[0])).toMatchObject({ kind: 'person' });
    const operator = capture();
    expect(
      await runTokensCommand(
        ['create', '--workspace', 'ops', '--user', 'sam', '--kind', 'operator'],
        tokens,
        operator.io,
      ),
    ).toBe(0);
    expect(JSON.parse(operator.out[0])).toMatchObject({ kind: 'operator', workspaceId: 'ops' });
    await expect(
      runTokensCommand(['create', '--workspace', 'ws1', '--user', 'u1', '--kind', 'root'], tokens, capture().io),
    ).rejects.toMatchObject({ code: 'VALIDATION_FAILED' });
    expect((await tokens.list()).map((r) => r.kind).sort()).toEqual(['operator', 'person']);
  });

  it('refuses bad usage and invalid ids', async () => {
    await expect(runTokensCommand(['create', '--workspace', 'ws1'], tokens, capture().io)).rejects.toBeInstanceOf(
      UsageError,
    );
    await expect(runTokensCommand(['create', '--bogus', 'x'], tokens, capture().io)).rejects.toBeInstanceOf(UsageError);
    await expect(runTokensCommand(['frobnicate'], tokens, capture().io)).rejects.toBeInstanceOf(UsageError);
    await expect(
      runTokensCommand(['create', '--workspace', 'Not A Slug', '--user', 'u1'], tokens, capture().io),
    ).rejects.toMatchObject({ code: 'VALIDATION_FAILED' });
  });
});
