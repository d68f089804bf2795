import { randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { openWorkspaceHarness, type WorkspaceHarness } from '@lomo/workspace/testing';
import { createToken, startStandaloneApi, type RunningApi } from '../api/support/standalone-api';
import {
  graphqlLane,
  processLane,
  type WriteAttempt,
  type WriteOutcome,
  type WriterLane,
} from './support/racing-writers';

// Issue 14, "Concurrency": 50 writers racing on one document with the same base version, from
// at least 2 OS processes on one SQLite file, each through the command service. Writers are
// dealt round-robin over lanes; a lane for the editDocument GraphQL mutation (an API process on
// the same file) can join `lanes` and take its share without changing the checks.

const WRITERS = 50;
const workspaceId = 'ws1';
const person = { kind: 'person' as const, userId: 'owner' };
const meta = { workspaceId, correlationId: 'race-setup', actor: { kind: 'user' as const, userId: 'owner' } };

/** A document at v1 and 50 whole rewrites of it, all based on v1. */
async function rewritesOfOneDocument(
  setup: WorkspaceHarness,
): Promise<{ artifactId: string; attempts: WriteAttempt[] }> {
  const artifactId = randomUUID();
  await setup.service.create(
    { artifactId, kind: 'document', title: 'Storyboard', by: person, content: { type: 'document', text: 'v1' } },
    meta,
  );
  const attempts: WriteAttempt[] = Array.from({ length: WRITERS }, (_, k) => ({
    writer: `w${k}`,
    kind: 'rewrite',
    artifactId,
    baseVersion: 1,
    text: `storyboard as rewritten by w${k}`,
  }));
  return { artifactId, attempts };
}

/** Exactly one write won (v2); every other one is a typed ARTIFACT_VERSION_CONFLICT naming v2. */
function expectOneWinner(outcomes: WriteOutcome[]): string {
  expect(outcomes).toHaveLength(WRITERS);
  const winners = outcomes.filter((o) => o.ok);
  const refused = outcomes.filter((o): o is Extract<WriteOutcome, { ok: false }> => !o.ok);
  expect(winners).toEqual([expect.objectContaining({ ok: true, version: 2 })]);
  expect(refused).toHaveLength(WRITERS - 1);
  expect(refused.every((r) => r.code === 'ARTIFACT_VERSION_CONFLICT' && r.currentVersion === 2)).toBe(true);
  return winners[0]!.writer;
}

/** No lost update: the document is the winner's text at v2, read by a cold reader of the file. */
async function expectWinnersText(dir: string, artifactId: string, winner: string): Promise<void> {
  const cold = openWorkspaceHarness(dir);
  try {
    expect(await cold.service.documentText(workspaceId, artifactId)).toEqual({
      version: 2,
      text: `storyboard as rewritten by ${winner}`,
    });
  } finally {
    await cold.close();
  }
}

/** Deals attempts round-robin over the lanes, releases them at one instant, collects outcomes. */
async function race(
  lanes: WriterLane[],
  artifactId: string,
  attempts: WriteAttempt[],
): Promise<Map<string, WriteOutcome[]>> {
  await Promise.all(lanes.map((lane) => lane.warm(workspaceId, artifactId)));
  const startAt = Date.now() + 200;
  const dealt = lanes.map((_, i) => attempts.filter((__, k) => k % lanes.length === i));
  const outcomes = await Promise.all(lanes.map((lane, i) => lane.race(dealt[i], startAt)));
  return new Map(lanes.map((lane, i) => [lane.name, outcomes[i]]));
}

describe('workspace concurrency: racing writers from several OS processes on one SQLite file', () => {
  let dir: string;
  let setup: WorkspaceHarness;
  let lanes: WriterLane[];

  beforeEach(() => {
    dir = mkdtempSync(path.join(tmpdir(), 'lomo-race-'));
    setup = openWorkspaceHarness(dir);
    lanes = [processLane('process-a', dir), processLane('process-b', dir)];
  });

  afterEach(async () => {
    await Promise.all(lanes.map((lane) => lane.close()));
    await setup.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('50 writers racing on one document with the same base version, from 2 processes: exactly one wins, 49 typed ARTIFACT_VERSION_CONFLICT refusals, no lost update', async () => {
    const { artifactId, attempts } = await rewritesOfOneDocument(setup);
    const byLane = await race(lanes, artifactId, attempts);
    const winner = expectOneWinner([...byLane.values()].flat());
    // Both processes raced: each got its share of refusals (all of its writers but the winner).
    for (const lane of lanes)
      expect(byLane.get(lane.name)!.filter((o) => !o.ok).length).toBeGreaterThanOrEqual(WRITERS / lanes.length - 1);
    // No lost update: the document is the winner's text, at version 2, read from a cold reader.
    await expectWinnersText(dir, artifactId, winner);
  });

  it('50 writers racing to edit the same snippet from 2 processes: exactly one applies, 49 typed SNIPPET_NOT_FOUND refusals, nothing lost', async () => {
    const artifactId = randomUUID();
    const text = `# Storyboard\nScene 1: [title card]\nScene 2: the harbour\n`;
    await setup.service.create(
      { artifactId, kind: 'document', title: 'Storyboard', by: person, content: { type: 'document', text } },
      meta,
    );
    const attempts: WriteAttempt[] = Array.from({ length: WRITERS }, (_, k) => ({
      writer: `w${k}`,
      kind: 'snippets',
      artifactId,
      baseVersion: 1,
      edits: [{ old: '[title card]', new: `[title card by w${k}]` }],
    }));
    const outcomes = [...(await race(lanes, artifactId, attempts)).values()].flat();
    const winners = outcomes.filter((o) => o.ok);
    expect(outcomes.filter((o) => !o.ok && o.code !== 'SNIPPET_NOT_FOUND')).toEqual([]);
    expect(winners).toHaveLength(1);
    expect(outcomes.filter((o) => !o.ok && o.code === 'SNIPPET_NOT_FOUND')).toHaveLength(WRITERS - 1);
    expect(await setup.service.documentText(workspaceId, artifactId)).toEqual({
      version: 2,
      text: text.replace('[title card]', `[title card by ${winners[0]!.writer}]`),
    });
  });

  it('50 writers racing on 50 distinct nodes of one flow with the same base, from 2 processes: all 50 apply, each told which others changed', async () => {
    const artifactId = randomUUID();
    const nodes = Array.from({ length: WRITERS }, (_, k) => ({
      nodeId: `n${k}`,
      kind: 'image.generate',
      params: { prompt: `shot ${k}` },
    }));
    await setup.service.create(
      { artifactId, kind: 'flow', title: 'Trailer', by: person, content: { type: 'flow', nodes, edges: [] } },
      meta,
    );
    const attempts: WriteAttempt[] = nodes.map((node, k) => ({
      writer: `w${k}`,
      kind: 'flowNode',
      artifactId,
      baseVersion: 1,
      nodeId: node.nodeId,
      baseNodeVersion: 1,
      params: { prompt: `shot ${k}, as w${k} wants it` },
    }));
    const outcomes = [...(await race(lanes, artifactId, attempts)).values()].flat();
    expect(outcomes.filter((o) => !o.ok)).toEqual([]);
    // Each applied at its own version 2..51, and was told exactly the nodes applied before it.
    const applied = outcomes
      .filter((o): o is Extract<WriteOutcome, { ok: true }> => o.ok)
      .sort((a, b) => a.version - b.version);
    expect(applied.map((o) => o.version)).toEqual(Array.from({ length: WRITERS }, (_, i) => i + 2));
    applied.forEach((o, i) => expect(o.otherChangedNodes).toHaveLength(i));
    const flow = await setup.service.flow(workspaceId, artifactId);
    expect(flow?.version).toBe(WRITERS + 1);
    for (const [k, node] of (flow?.nodes ?? []).entries()) {
      expect(node).toMatchObject({ nodeId: `n${k}`, version: 2, params: { prompt: `shot ${k}, as w${k} wants it` } });
    }
  });
});

describe('workspace concurrency: racing writers from 2 processes and the editDocument mutation on one SQLite file', () => {
  let dir: string;
  let setup: WorkspaceHarness;
  let api: RunningApi;
  let lanes: WriterLane[];

  beforeAll(async () => {
    dir = mkdtempSync(path.join(tmpdir(), 'lomo-race-api-'));
    setup = openWorkspaceHarness(dir);
    // The API process writes to the same event-store file (and the document text table in it).
    api = await startStandaloneApi({ LOMO_SQLITE_PATH: path.join(dir, 'events.sqlite') });
    const { token } = await createToken(api, workspaceId, 'racer');
    lanes = [processLane('process-a', dir), processLane('process-b', dir), graphqlLane('graphql', api, token)];
  }, 90_000);

  afterAll(async () => {
    await Promise.all((lanes ?? []).map((lane) => lane.close()));
    await api?.stop();
    await setup?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('50 writers with the same base version, at least 10 through editDocument: exactly one wins, 49 typed refusals, no lost update', async () => {
    const { artifactId, attempts } = await rewritesOfOneDocument(setup);
    const byLane = await race(lanes, artifactId, attempts);
    expect(byLane.get('graphql')!.length).toBeGreaterThanOrEqual(10);
    const winner = expectOneWinner([...byLane.values()].flat());
    await expectWinnersText(dir, artifactId, winner);
  });
});
