import { ApiTokens, DocumentApiTokenStore } from '@lomo/auth';
import { SqliteDocumentStore } from '@lomo/read-models';
import { createOutput } from '../cli-output';
import { tokenActions } from './tokens-command';

function capture(json: boolean) {
  const out: string[] = [];
  const err: string[] = [];
  return { output: createOutput(json, { out: (l) => out.push(l), err: (l) => err.push(l) }), out, err };
}

describe('lomo tokens', () => {
  let store: DocumentApiTokenStore;
  let tokens: ApiTokens;
  beforeEach(() => {
    store = new DocumentApiTokenStore(new SqliteDocumentStore({ filename: ':memory:' }), { ownsDocuments: true });
    tokens = new ApiTokens(store);
  });
  afterEach(() => store.close());

  it('creates a token (secret shown once), lists it without the secret, and revokes it; an unknown id exits 1', async () => {
    const created = capture(true);
    const actions = tokenActions(tokens, created.output, (l) => created.err.push(l));
    expect(await actions.create({ workspace: 'ws1', user: 'u1', name: 'ci' })).toBe(0);
    const token = JSON.parse(created.out[0]) as { id: string; token: string };
    expect(token).toMatchObject({ workspaceId: 'ws1', name: 'ci', token: expect.stringMatching(/^lomo_/) });
    expect(created.err.join('\n')).toMatch(/cannot be shown again/);

    const listed = capture(true);
    expect(await tokenActions(tokens, listed.output, () => undefined).list({ workspace: 'ws1' })).toBe(0);
    expect(listed.out.map((l) => JSON.parse(l) as Record<string, unknown>)).toEqual([
      expect.objectContaining({ id: token.id, revokedAt: null }),
    ]);
    expect(listed.out.join('\n')).not.toContain(token.token);

    const table = capture(false);
    await tokenActions(tokens, table.output, () => undefined).list({});
    expect(table.out[0]).toMatch(/^id\s+name\s+kind\s+workspace/);
    expect(table.out[0]).toContain(token.id);

    const revoked = capture(true);
    expect(await tokenActions(tokens, revoked.output, () => undefined).revoke(token.id)).toBe(0);
    expect(JSON.parse(revoked.out[0])).toEqual({ id: token.id, outcome: 'revoked' });
    expect(await tokenActions(tokens, capture(true).output, () => undefined).revoke('no-such-id')).toBe(1);
  });

  it('refuses an unknown kind with a validation error and stores nothing', async () => {
    const run = capture(true);
    await expect(
      tokenActions(tokens, run.output, () => undefined).create({ workspace: 'ws1', user: 'u1', kind: 'root' as never }),
    ).rejects.toMatchObject({ code: 'VALIDATION_FAILED' });
    expect(await tokens.list({ includeRevoked: true })).toEqual([]);
  });
});
