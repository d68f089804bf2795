import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import Database from 'better-sqlite3';
import { streams, type Actor } from '@lomo/contracts';
import { handleCommand } from '@lomo/command-handling';
import { taskDecider, taskEventTypes, type TaskCommand } from '@lomo/domain';
import { SequentialIds } from '@lomo/testing';
import { openWorkspaceHarness, type WorkspaceHarness } from '../testing';

const doc = '0b9c6f3e-8a51-4d7e-9a35-2f7c1d4e5a60';
const flow = '1b9c6f3e-8a51-4d7e-9a35-2f7c1d4e5a61';
const task = '3b9c6f3e-8a51-4d7e-9a35-2f7c1d4e5a63';
const requestId = '5b9c6f3e-8a51-4d7e-9a35-2f7c1d4e5a65';
const person = { kind: 'person' as const, userId: 'u1' };
const agent = { kind: 'agent' as const, taskId: task, callId: `7b9c6f3e-8a51-4d7e-9a35-2f7c1d4e5a67:1:0` };
const meta = { workspaceId: 'ws1', correlationId: 'corr-1', actor: { kind: 'user' as const, userId: 'u1' } };
const agentMeta = { ...meta, actor: { kind: 'agent' as const } };

describe('ArtifactCommandService on embedded SQLite (events and document text in one file)', () => {
  let dir: string;
  let h: WorkspaceHarness;
  beforeEach(() => {
    dir = mkdtempSync(path.join(tmpdir(), 'lomo-workspace-'));
    h = openWorkspaceHarness(dir);
  });
  afterEach(async () => {
    await h.close();
    rmSync(dir, { recursive: true, force: true });
  });

  const createDoc = (text = 'v1 text') =>
    h.service.create(
      {
        artifactId: doc,
        kind: 'document',
        title: 'Storyboard',
        by: agent,
        taskId: task,
        content: { type: 'document', text },
      },
      agentMeta,
    );

  it("the article's sequence: the agent's v3-based rewrite after the person's v4 is refused with the current version; re-read and resubmit applies", async () => {
    await createDoc('v1');
    await h.service.rewriteDocument({ artifactId: doc, baseVersion: 1, text: 'v2', by: agent }, agentMeta);
    await h.service.rewriteDocument({ artifactId: doc, baseVersion: 2, text: 'v3', by: agent }, agentMeta);
    const read = await h.service.documentText('ws1', doc);
    expect(read).toEqual({ version: 3, text: 'v3' });
    await h.service.rewriteDocument({ artifactId: doc, baseVersion: 3, text: 'v4 by the person', by: person }, meta);
    await expect(
      h.service.rewriteDocument({ artifactId: doc, baseVersion: 3, text: 'v4 by the agent', by: agent }, agentMeta),
    ).rejects.toMatchObject({
      code: 'ARTIFACT_VERSION_CONFLICT',
      details: { currentVersion: 4 },
    });
    const reread = await h.service.documentText('ws1', doc);
    expect(reread).toEqual({ version: 4, text: 'v4 by the person' });
    const resubmitted = await h.service.rewriteDocument(
      { artifactId: doc, baseVersion: 4, text: 'v5 by the agent', by: agent },
      agentMeta,
    );
    expect(resubmitted.version).toBe(5);
    expect(await h.service.documentText('ws1', doc, 3)).toEqual({ version: 3, text: 'v3' });
  });

  it('a snippet edit with a missing or non-unique snippet is refused and nothing changes; several where one fails apply none', async () => {
    await createDoc('alpha beta beta gamma');
    const before = await h.store.streamRevision(streams.artifact(doc));
    await expect(
      h.service.editDocument(
        { artifactId: doc, baseVersion: 1, edits: [{ old: 'delta', new: 'x' }], by: person },
        meta,
      ),
    ).rejects.toMatchObject({ code: 'SNIPPET_NOT_FOUND' });
    await expect(
      h.service.editDocument({ artifactId: doc, baseVersion: 1, edits: [{ old: 'beta', new: 'x' }], by: person }, meta),
    ).rejects.toMatchObject({ code: 'SNIPPET_NOT_UNIQUE' });
    await expect(
      h.service.editDocument(
        {
          artifactId: doc,
          baseVersion: 1,
          edits: [
            { old: 'alpha', new: 'A' },
            { old: 'beta', new: 'B' },
          ],
          by: person,
        },
        meta,
      ),
    ).rejects.toMatchObject({
      code: 'SNIPPET_NOT_UNIQUE',
      details: { failedEdits: [{ index: 1, reason: 'not_unique' }] },
    });
    expect(await h.store.streamRevision(streams.artifact(doc))).toBe(before);
    expect(await h.service.documentText('ws1', doc)).toEqual({ version: 1, text: 'alpha beta beta gamma' });
  });

  it('stores snippet edits as small patches, snapshots every 32 versions, and reads every version back from a cold cache', async () => {
    const base = Array.from({ length: 400 }, (_, i) => `line ${i}: [slot ${i}]`).join('\n');
    await createDoc(base);
    const expected = [base];
    let text = base;
    for (let i = 0; i < 70; i += 1) {
      await h.service.editDocument(
        { artifactId: doc, baseVersion: i + 1, edits: [{ old: `[slot ${i}]`, new: `[edited ${i}]` }], by: person },
        meta,
      );
      text = text.replace(`[slot ${i}]`, `[edited ${i}]`);
      expected.push(text);
    }
    const db = new Database(path.join(dir, 'events.sqlite'), { readonly: true });
    const rows = db
      .prepare(
        'SELECT content_type AS type, count(*) AS n, max(bytes) AS max FROM blobs GROUP BY content_type ORDER BY content_type',
      )
      .all();
    db.close();
    // 70 patches of a few dozen bytes; full texts only at creation and at versions 33 and 65.
    expect(rows).toEqual([
      { type: 'application/json', n: 70, max: expect.any(Number) },
      { type: 'text/markdown', n: 3, max: expect.any(Number) },
    ]);
    expect((rows[0] as { max: number }).max).toBeLessThan(100);
    const cold = openWorkspaceHarness(dir);
    try {
      for (let v = 1; v <= 71; v += 1)
        expect((await cold.service.documentText('ws1', doc, v))?.text).toBe(expected[v - 1]);
    } finally {
      await cold.close();
    }
  });

  it('flows: the person edits A while the agent edits B: both apply and the agent is told A changed; A after the person: refused with its new version', async () => {
    await h.service.create(
      {
        artifactId: flow,
        kind: 'flow',
        title: 'Trailer',
        by: agent,
        content: {
          type: 'flow',
          nodes: ['A', 'B', 'C'].map((nodeId) => ({ nodeId, kind: 'image.generate', params: {} })),
          edges: [{ edgeId: 'ab', from: 'A', to: 'B' }],
        },
      },
      agentMeta,
    );
    await h.service.editFlowNodes(
      {
        artifactId: flow,
        baseVersion: 1,
        edits: [{ nodeId: 'A', baseNodeVersion: 1, params: { prompt: 'person' } }],
        by: person,
      },
      meta,
    );
    const agentEdit = await h.service.editFlowNodes(
      {
        artifactId: flow,
        baseVersion: 1,
        edits: [{ nodeId: 'B', baseNodeVersion: 1, params: { prompt: 'agent' } }],
        by: agent,
      },
      agentMeta,
    );
    expect(agentEdit).toMatchObject({
      version: 3,
      otherChangedNodes: [{ nodeId: 'A', version: 2 }],
      nodeVersions: { B: 2 },
    });
    await expect(
      h.service.editFlowNodes(
        {
          artifactId: flow,
          baseVersion: 1,
          edits: [{ nodeId: 'A', baseNodeVersion: 1, params: { prompt: 'agent' } }],
          by: agent,
        },
        agentMeta,
      ),
    ).rejects.toMatchObject({ code: 'FLOW_NODE_CONFLICT', details: { changedNodes: [{ nodeId: 'A', version: 2 }] } });
    const read = await h.service.flow('ws1', flow);
    expect(read?.nodes.map((n) => [n.nodeId, n.version, n.params])).toEqual([
      ['A', 2, { prompt: 'person' }],
      ['B', 2, { prompt: 'agent' }],
      ['C', 1, {}],
    ]);
  });

  it('a writer with a stale cache (another writer on the same file) is refused by the store and re-decides: typed refusal, no lost update', async () => {
    await createDoc('shared');
    const other = openWorkspaceHarness(dir);
    try {
      // Both caches hold version 1; the other writer moves it on.
      expect((await other.service.documentText('ws1', doc))?.version).toBe(1);
      await other.service.rewriteDocument({ artifactId: doc, baseVersion: 1, text: 'theirs', by: person }, meta);
      await expect(
        h.service.rewriteDocument({ artifactId: doc, baseVersion: 1, text: 'mine', by: agent }, agentMeta),
      ).rejects.toMatchObject({
        code: 'ARTIFACT_VERSION_CONFLICT',
        details: { currentVersion: 2 },
      });
      // A snippet edit on the stale cache applies on the latest text, not on the cached one.
      await h.service.editDocument(
        { artifactId: doc, baseVersion: 1, edits: [{ old: 'theirs', new: 'theirs + mine' }], by: agent },
        agentMeta,
      );
      expect(await other.service.documentText('ws1', doc)).toEqual({ version: 3, text: 'theirs + mine' });
    } finally {
      await other.close();
    }
  });

  it("another workspace's artefact is not found, for reads and writes alike", async () => {
    await createDoc();
    expect(await h.service.snapshot('ws2', doc)).toBeUndefined();
    expect(await h.service.documentText('ws2', doc)).toBeUndefined();
    await expect(
      h.service.rewriteDocument(
        { artifactId: doc, baseVersion: 1, text: 'x', by: person },
        { ...meta, workspaceId: 'ws2' },
      ),
    ).rejects.toMatchObject({ code: 'ARTIFACT_NOT_FOUND' });
  });

  it('deleting without confirmation is refused; the person confirming their request deletes it, and writes are refused after', async () => {
    await createDoc();
    await expect(h.service.confirmDeletion({ artifactId: doc, requestId, userId: 'u1' }, meta)).rejects.toMatchObject({
      code: 'DELETION_NOT_CONFIRMED',
    });
    await h.service.requestDeletion({ artifactId: doc, requestId }, meta);
    await h.service.confirmDeletion({ artifactId: doc, requestId, userId: 'u1' }, meta);
    expect(await h.service.snapshot('ws1', doc)).toMatchObject({ deleted: true, references: [task] });
    await expect(
      h.service.rewriteDocument({ artifactId: doc, baseVersion: 1, text: 'x', by: person }, meta),
    ).rejects.toMatchObject({ code: 'ARTIFACT_DELETED' });
  });

  it('bad input is a typed refusal that writes nothing', async () => {
    await expect(
      h.service.editDocument({ artifactId: 'not-a-uuid', baseVersion: 1, edits: [], by: person }, meta),
    ).rejects.toMatchObject({ code: 'ARTIFACT_INVALID_INPUT' });
    await expect(
      h.service.rewriteDocument({ artifactId: doc, baseVersion: 1, text: 'x', by: person }, meta),
    ).rejects.toMatchObject({ code: 'ARTIFACT_NOT_FOUND' });
    expect(await h.store.streamRevision(streams.artifact(doc))).toBe('no_stream');
  });

  it("the agent's delete needs the person's recorded approval of its task's checkpoint; the agent approving itself does not count", async () => {
    await createDoc();
    const turnId = '8b9c6f3e-8a51-4d7e-9a35-2f7c1d4e5a68';
    const checkpointId = '6b9c6f3e-8a51-4d7e-9a35-2f7c1d4e5a66';
    const callId = `${turnId}:1:0`;
    const ids = new SequentialIds();
    const onTask = (command: TaskCommand, actor: Actor) =>
      handleCommand(h.store, streams.task(task), taskDecider, command, {
        eventTypes: taskEventTypes,
        ids,
        metadata: { correlationId: 'c', causationId: null, workspaceId: 'ws1', actor },
      });
    const system = { kind: 'system' as const, component: 'router' };
    await onTask(
      {
        type: 'CreateTask',
        taskId: task,
        kind: 'persistent',
        goal: 'Storyboard',
        language: 'en',
        originMessageId: requestId,
      },
      system,
    );
    await onTask({ type: 'OpenTurn', turnId, reason: 'message' }, system);
    await onTask(
      { type: 'OpenCheckpoint', checkpointId, turnId, kind: 'approval', callId, question: 'Delete the storyboard?' },
      { kind: 'agent' },
    );
    const del = () => h.service.deleteWithCheckpoint({ artifactId: doc, taskId: task, checkpointId }, agentMeta);
    await expect(del()).rejects.toMatchObject({ code: 'DELETION_NOT_CONFIRMED' });
    // A model's claim of approval: recorded by the agent itself, it resolves nothing.
    await onTask(
      { type: 'ResolveCheckpoint', checkpointId, decision: 'approve', callId, resolvedBy: 'u1' },
      { kind: 'agent' },
    );
    await expect(del()).rejects.toMatchObject({ code: 'DELETION_NOT_CONFIRMED' });
    await onTask(
      { type: 'ResolveCheckpoint', checkpointId, decision: 'approve', callId, resolvedBy: 'u1' },
      { kind: 'user', userId: 'u1' },
    );
    await del();
    expect(await h.service.snapshot('ws1', doc)).toMatchObject({ deleted: true });
    // A repeat of the same confirmed delete is a no-op.
    await expect(del()).resolves.toMatchObject({ version: 1 });
  });
});
