import { ToolRegistry, type ToolResult } from '@lomo/tools';
import { makeToolContext, TEST_TASK_ID, TEST_WORKSPACE_ID } from '@lomo/tools/testing';
import { FakeWorkspace } from '@lomo/workspace/testing';
import { createWorkspaceTools } from './create-workspace-tools';

const person = { kind: 'person' as const, userId: 'alice' };
const meta = { workspaceId: TEST_WORKSPACE_ID, correlationId: 'c1', actor: { kind: 'user' as const, userId: 'alice' } };
const checkpointIdFor = (callId: string) => `cp:${callId}`;

function setup() {
  // A clock that moves one second per write, so "most recently changed first" has no ties.
  let tick = 0;
  const now = () => new Date(Date.UTC(2026, 0, 1, 0, 0, tick++)).toISOString();
  const workspace = new FakeWorkspace({ now });
  const registry = new ToolRegistry(
    createWorkspaceTools({ commands: workspace, reader: workspace, readModel: workspace, checkpointIdFor }),
  );
  const call = (name: string, args: unknown, index = 0, step = 1) =>
    registry.invoke(name, args, makeToolContext({ index, step }));
  return { workspace, registry, call };
}

const ok = (result: ToolResult) => {
  if (result.status !== 'ok') throw new Error(`expected ok, got ${JSON.stringify(result)}`);
  return result.output as Record<string, unknown> & { artifact: { artifactId: string; version: number } };
};

describe('workspace agent tools (document, flow, asset)', () => {
  it('declare their domain, side-effect class and idempotency', () => {
    const { registry } = setup();
    expect(registry.list().map((t) => [t.name, t.domain, t.sideEffect, t.idempotent])).toEqual([
      ['artifact.read', 'document', 'read', true],
      ['document.edit', 'document', 'write', true],
      ['document.read', 'document', 'read', true],
      ['document.write', 'document', 'write', true],
      ['artifact.delete', 'asset', 'irreversible', true],
      ['artifact.reference', 'asset', 'write', true],
      ['asset.list', 'asset', 'read', true],
      ['asset.search', 'asset', 'read', true],
      ['flow.create', 'flow', 'write', true],
      ['flow.edit_nodes', 'flow', 'write', true],
      ['flow.read', 'flow', 'read', true],
    ]);
  });

  it('document.write without an artifactId creates one document per call id: a retry lands on the same artefact', async () => {
    const { workspace, call } = setup();
    const first = ok(await call('document.write', { title: 'Storyboard', text: '# Shots\n1. dawn' }));
    const retry = ok(await call('document.write', { title: 'Storyboard', text: '# Shots\n1. dawn' }));
    const other = ok(await call('document.write', { title: 'Other', text: 'x' }, 1));
    expect(retry.artifact).toEqual(first.artifact);
    expect(first.artifact.version).toBe(1);
    expect(other.artifact.artifactId).not.toBe(first.artifact.artifactId);
    const listed = await workspace.artifacts(TEST_WORKSPACE_ID, { kind: 'document' }, { first: 10 });
    // Two documents, not three (the list's order is by last change, which may tie here).
    expect(listed.items.map((a) => [a.title, a.taskIds]).sort()).toEqual([
      ['Other', [TEST_TASK_ID]],
      ['Storyboard', [TEST_TASK_ID]],
    ]);
    const created = workspace.calls.find((c) => c.method === 'create')!;
    expect(created.input).toMatchObject({
      by: { kind: 'agent', taskId: TEST_TASK_ID, callId: makeToolContext().callId },
    });
  });

  it('the agent reads v1, the person saves v2, the agent’s v1-based rewrite is refused with the current version, then re-reads and resubmits', async () => {
    const { workspace, call } = setup();
    const { artifact } = ok(await call('document.write', { title: 'Storyboard', text: 'shot 1: dawn' }));
    const read = ok(await call('document.read', { artifactId: artifact.artifactId }, 0, 2));
    expect(read).toMatchObject({ artifact: { version: 1 }, text: 'shot 1: dawn' });

    await workspace.rewriteDocument(
      { artifactId: artifact.artifactId, baseVersion: 1, text: 'shot 1: dusk', by: person },
      meta,
    );
    const refused = await call(
      'document.write',
      { artifactId: artifact.artifactId, baseVersion: 1, text: 'mine' },
      0,
      3,
    );
    expect(refused).toMatchObject({
      status: 'error',
      error: { code: 'ARTIFACT_VERSION_CONFLICT', message: expect.stringContaining('current version: 2') },
    });
    expect((await workspace.documentText(TEST_WORKSPACE_ID, artifact.artifactId))?.text).toBe('shot 1: dusk');

    const reread = ok(await call('document.read', { artifactId: artifact.artifactId }, 0, 4));
    const resubmitted = ok(
      await call(
        'document.write',
        { artifactId: artifact.artifactId, baseVersion: reread.artifact.version, text: 'mine' },
        0,
        5,
      ),
    );
    expect(resubmitted.artifact).toEqual({ artifactId: artifact.artifactId, version: 3 });
  });

  it('a retried rewrite whose first run did write answers with that version instead of a conflict', async () => {
    const { call } = setup();
    const { artifact } = ok(await call('document.write', { title: 'Doc', text: 'a' }));
    const args = { artifactId: artifact.artifactId, baseVersion: 1, text: 'b' };
    const first = ok(await call('document.write', args, 0, 2));
    const retry = ok(await call('document.write', args, 0, 2));
    expect(retry.artifact).toEqual(first.artifact);
  });

  it('document.write refuses a rewrite without baseVersion and changes nothing', async () => {
    const { workspace, call } = setup();
    const { artifact } = ok(await call('document.write', { title: 'Doc', text: 'a' }));
    const refused = await call('document.write', { artifactId: artifact.artifactId, text: 'b' }, 0, 2);
    expect(refused).toMatchObject({ status: 'error', error: { code: 'TOOL_INVALID_ARGUMENTS' } });
    expect((await workspace.documentText(TEST_WORKSPACE_ID, artifact.artifactId))?.version).toBe(1);
  });

  it('document.edit with a missing or non-unique snippet is refused and nothing changes; several snippets where one fails apply none', async () => {
    const { workspace, call } = setup();
    const { artifact } = ok(await call('document.write', { title: 'Doc', text: 'one two two three' }));
    const id = artifact.artifactId;
    const missing = await call(
      'document.edit',
      { artifactId: id, baseVersion: 1, edits: [{ old: 'four', new: '4' }] },
      0,
      2,
    );
    const twice = await call(
      'document.edit',
      { artifactId: id, baseVersion: 1, edits: [{ old: 'two', new: '2' }] },
      0,
      3,
    );
    const mixed = await call(
      'document.edit',
      {
        artifactId: id,
        baseVersion: 1,
        edits: [
          { old: 'one', new: '1' },
          { old: 'four', new: '4' },
        ],
      },
      0,
      4,
    );
    expect([missing, twice, mixed].map((r) => (r.status === 'error' ? r.error.code : r.status))).toEqual([
      'SNIPPET_NOT_FOUND',
      'SNIPPET_NOT_UNIQUE',
      'SNIPPET_NOT_FOUND',
    ]);
    expect(mixed.status === 'error' && mixed.error.message).toContain('#1 not found');
    expect(await workspace.documentText(TEST_WORKSPACE_ID, id)).toEqual({ version: 1, text: 'one two two three' });

    const applied = ok(
      await call(
        'document.edit',
        {
          artifactId: id,
          baseVersion: 1,
          edits: [
            { old: 'one', new: '1' },
            { old: 'three', new: '3' },
          ],
        },
        0,
        5,
      ),
    );
    expect(applied.artifact.version).toBe(2);
    expect((await workspace.documentText(TEST_WORKSPACE_ID, id))?.text).toBe('1 two two 3');
  });

  it('flow: the person edits node A while the agent edits node B: both apply and the agent is told A changed; the agent editing A on its old base is refused with A’s new version', async () => {
    const { workspace, call } = setup();
    const created = ok(
      await call('flow.create', {
        title: 'Storyboard flow',
        nodes: [
          { nodeId: 'A', kind: 'shot', params: { text: 'dawn' } },
          { nodeId: 'B', kind: 'shot', params: { text: 'noon' } },
        ],
        edges: [{ edgeId: 'e1', from: 'A', to: 'B' }],
      }),
    );
    const id = created.artifact.artifactId;
    const summary = ok(await call('flow.read', { artifactId: id }, 0, 2));
    expect(summary).toEqual({
      artifact: { artifactId: id, version: 1 },
      structureVersion: 1,
      nodes: [
        { nodeId: 'A', kind: 'shot', version: 1 },
        { nodeId: 'B', kind: 'shot', version: 1 },
      ],
      edgeCount: 1,
    });
    await workspace.editFlowNodes(
      {
        artifactId: id,
        baseVersion: 1,
        edits: [{ nodeId: 'A', baseNodeVersion: 1, params: { text: 'dusk' } }],
        by: person,
      },
      meta,
    );
    const mine = ok(
      await call(
        'flow.edit_nodes',
        { artifactId: id, baseVersion: 1, edits: [{ nodeId: 'B', baseNodeVersion: 1, params: { text: 'night' } }] },
        0,
        3,
      ),
    );
    expect(mine).toMatchObject({
      artifact: { version: 3 },
      nodeVersions: { B: 2 },
      otherChangedNodes: [{ nodeId: 'A', version: 2 }],
    });

    const stale = await call(
      'flow.edit_nodes',
      { artifactId: id, baseVersion: 1, edits: [{ nodeId: 'A', baseNodeVersion: 1, params: { text: 'mine' } }] },
      0,
      4,
    );
    expect(stale).toMatchObject({
      status: 'error',
      error: { code: 'FLOW_NODE_CONFLICT', message: expect.stringContaining('changed nodes: A@2') },
    });
    const detail = ok(await call('flow.read', { artifactId: id, includeParams: true, nodeIds: ['A'] }, 0, 5));
    expect(detail.nodes).toEqual([{ nodeId: 'A', kind: 'shot', version: 2, params: { text: 'dusk' } }]);
    expect(detail.edges).toEqual([{ edgeId: 'e1', from: 'A', to: 'B' }]);
  });

  it('asset.list and asset.search find artefacts by kind, task and text; listings carry no top-level artifact', async () => {
    const { workspace, call } = setup();
    ok(await call('document.write', { title: 'Storyboard', text: 'a lighthouse at dawn' }));
    await workspace.create(
      {
        artifactId: '33333333-3333-4333-8333-333333333333',
        kind: 'image',
        title: 'Lighthouse photo',
        by: person,
        content: { type: 'blob', bytes: Buffer.from('png'), contentType: 'image/png' },
      },
      meta,
    );
    const all = ok(await call('asset.list', {}, 0, 2));
    const images = ok(await call('asset.list', { kind: 'image' }, 0, 3));
    const mineOnly = ok(await call('asset.list', { scope: 'task' }, 0, 4));
    const found = ok(await call('asset.search', { text: 'lighthouse' }, 0, 5));
    const byText = ok(await call('asset.search', { text: 'dawn' }, 0, 6));
    const titles = (o: Record<string, unknown>) => (o.artifacts as Array<{ title: string }>).map((a) => a.title);
    expect([titles(all), titles(images), titles(mineOnly), titles(found), titles(byText)]).toEqual([
      ['Lighthouse photo', 'Storyboard'],
      ['Lighthouse photo'],
      ['Storyboard'],
      ['Lighthouse photo', 'Storyboard'],
      ['Storyboard'],
    ]);
    expect(all).not.toHaveProperty('artifact');
  });

  it('artifact.reference binds an artefact to the task once; another workspace’s id is not found', async () => {
    const { workspace, registry } = setup();
    const id = '44444444-4444-4444-8444-444444444444';
    await workspace.create(
      { artifactId: id, kind: 'document', title: 'Brief', by: person, content: { type: 'document', text: 't' } },
      meta,
    );
    const bind = (workspaceId: string) =>
      registry.invoke('artifact.reference', { artifactId: id }, makeToolContext({ workspaceId }));
    expect(ok(await bind(TEST_WORKSPACE_ID)).artifact).toEqual({ artifactId: id, version: 1 });
    expect(ok(await bind(TEST_WORKSPACE_ID)).artifact).toEqual({ artifactId: id, version: 1 });
    expect((await workspace.snapshot(TEST_WORKSPACE_ID, id))?.references).toEqual([TEST_TASK_ID]);
    expect(await bind('ws_other')).toMatchObject({ status: 'error', error: { code: 'ARTIFACT_NOT_FOUND' } });
  });

  it('artifact.delete is irreversible: it needs an approval of its call, and the delete names the checkpoint that authorized it', async () => {
    const { workspace, registry } = setup();
    const id = '55555555-5555-4555-8555-555555555555';
    await workspace.create(
      { artifactId: id, kind: 'document', title: 'Old draft', by: person, content: { type: 'document', text: 't' } },
      meta,
    );
    const context = makeToolContext({ step: 3 });
    expect(registry.authorize('artifact.delete', context.callId, { has: () => false })).toMatchObject({
      decision: 'needs_approval',
      callId: context.callId,
    });
    expect(registry.authorize('artifact.delete', context.callId, { has: (c) => c === context.callId })).toEqual({
      decision: 'allowed',
    });
    const deleted = ok(await registry.invoke('artifact.delete', { artifactId: id }, context));
    expect(deleted).toMatchObject({ artifact: { artifactId: id }, deleted: true });
    expect(workspace.calls.at(-1)).toMatchObject({
      method: 'deleteWithCheckpoint',
      input: { artifactId: id, taskId: TEST_TASK_ID, checkpointId: `cp:${context.callId}` },
    });
    expect((await workspace.artifacts(TEST_WORKSPACE_ID, {}, { first: 10 })).items).toEqual([]);
  });
});
