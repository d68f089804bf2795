import { ToolRegistry, type ToolResult } from '@lomo/tools';
import { makeToolContext, TEST_WORKSPACE_ID } from '@lomo/tools/testing';
import { FakeWorkspace } from '@lomo/workspace/testing';
import { ARTIFACT_RANGE_OUT_OF_RANGE } from './document-tools';
import { createWorkspaceTools } from './create-workspace-tools';

const person = { kind: 'person' as const, userId: 'alice' };
const meta = { workspaceId: TEST_WORKSPACE_ID, correlationId: 'c1', actor: { kind: 'user' as const, userId: 'alice' } };

function setup() {
  const workspace = new FakeWorkspace();
  const registry = new ToolRegistry(
    createWorkspaceTools({
      commands: workspace,
      reader: workspace,
      readModel: workspace,
      checkpointIdFor: (callId) => `cp:${callId}`,
    }),
  );
  let index = 0;
  const call = (name: string, args: unknown) => registry.invoke(name, args, makeToolContext({ index: index++ }));
  return { workspace, registry, call };
}

const ok = (result: ToolResult) => {
  if (result.status !== 'ok') throw new Error(`expected ok, got ${JSON.stringify(result)}`);
  return result.output as Record<string, unknown> & { artifact: { artifactId: string; version: number }; text: string };
};
const codeOf = (result: ToolResult) => (result.status === 'error' ? result.error.code : result.status);

describe('artifact.read (a range of a document, exactly as stored)', () => {
  const text = `# Storyboard\n${Array.from({ length: 2_000 }, (_, i) => `shot ${i}: the harbour at dawn 🌅, fog`).join('\n')}`;

  async function document(s: ReturnType<typeof setup>, body = text) {
    return ok(await s.call('document.write', { title: 'Storyboard', text: body })).artifact.artifactId;
  }

  it('is a document-domain read whose output is a page (recorded inline, never stored again)', () => {
    const tool = setup().registry.get('artifact.read')!;
    expect([tool.domain, tool.sideEffect, tool.idempotent, tool.returnsPage]).toEqual(['document', 'read', true, true]);
  });

  it('reads a page, with the version, the total length and where the page starts', async () => {
    const s = setup();
    const id = await document(s);
    const page = ok(await s.call('artifact.read', { artifactId: id, range: { page: 2, pageChars: 1_000 } }));
    expect(page).toEqual({
      artifact: { artifactId: id, version: 1 },
      title: 'Storyboard',
      latestVersion: 1,
      deleted: false,
      totalChars: text.length,
      offset: 1_000,
      page: 2,
      pages: Math.ceil(text.length / 1_000),
      pageChars: 1_000,
      text: text.slice(1_000, 2_000),
    });
  });

  it('without a range, reads the first page of the default size', async () => {
    const s = setup();
    const id = await document(s);
    expect(ok(await s.call('artifact.read', { artifactId: id }))).toMatchObject({
      offset: 0,
      page: 1,
      pageChars: 8_000,
      text: text.slice(0, 8_000),
    });
  });

  it('reads a span by offset and length, cut at the end; never half an emoji', async () => {
    const s = setup();
    const id = await document(s, 'ab🌅cd');
    expect(ok(await s.call('artifact.read', { artifactId: id, range: { offset: 1, length: 100 } }))).toMatchObject({
      offset: 1,
      text: 'b🌅cd',
      totalChars: 6,
    });
    // Offset 3 is inside 🌅 (units 2 and 3): the span starts at 2.
    expect(ok(await s.call('artifact.read', { artifactId: id, range: { offset: 3, length: 2 } }))).toMatchObject({
      offset: 2,
      text: '🌅c',
    });
  });

  it('reads an older version', async () => {
    const s = setup();
    const id = await document(s, 'first text');
    await s.workspace.rewriteDocument({ artifactId: id, baseVersion: 1, text: 'second text', by: person }, meta);
    expect(
      ok(await s.call('artifact.read', { artifactId: id, version: 1, range: { offset: 0, length: 5 } })),
    ).toMatchObject({
      artifact: { version: 1 },
      latestVersion: 2,
      text: 'first',
    });
  });

  it('typed refusals: past the end, not a document, no such artefact, malformed range', async () => {
    const s = setup();
    const id = await document(s, 'short');
    const past = await s.call('artifact.read', { artifactId: id, range: { page: 2, pageChars: 1_000 } });
    expect(past).toMatchObject({ status: 'error', error: { code: ARTIFACT_RANGE_OUT_OF_RANGE } });
    expect(past.status === 'error' && past.error.message).toContain('has 1 page(s) of 1000 characters (5 in all)');
    expect(codeOf(await s.call('artifact.read', { artifactId: id, range: { offset: 6, length: 1 } }))).toBe(
      ARTIFACT_RANGE_OUT_OF_RANGE,
    );
    const flow = ok(await s.call('flow.create', { title: 'Flow', nodes: [] })).artifact.artifactId;
    expect(codeOf(await s.call('artifact.read', { artifactId: flow }))).toBe('ARTIFACT_KIND_MISMATCH');
    expect(codeOf(await s.call('artifact.read', { artifactId: '00000000-0000-4000-8000-000000000000' }))).toBe(
      'ARTIFACT_NOT_FOUND',
    );
    for (const range of [{ page: 1, offset: 0 }, { offset: 0 }, { page: 0 }, { page: 1, pageChars: 10 }])
      expect(codeOf(await s.call('artifact.read', { artifactId: id, range }))).toBe('TOOL_INVALID_ARGUMENTS');
  });

  it('leaves document.read as it was: the whole text', async () => {
    const s = setup();
    const id = await document(s);
    expect(ok(await s.call('document.read', { artifactId: id }))).toEqual({
      artifact: { artifactId: id, version: 1 },
      title: 'Storyboard',
      latestVersion: 1,
      deleted: false,
      text,
    });
  });
});
