import { rmSync } from 'node:fs';
import * as path from 'node:path';
import { canonicalJson } from '@lomo/contracts';
import { FilesystemBlobStore } from '@lomo/blobs';
import { SqliteEventStore } from '@lomo/eventstore';
import { ProjectionAliases, ReadModels, SqliteDocumentStore, type TaskDocument } from '@lomo/read-models';
import { PromptArchive } from '@lomo/runtime';
import { collaborationMetrics, IDEAL_FIGURES, metricFigures } from '@lomo/operator';
import { runLomo } from './support/run-lomo';
import { recordThreeStageBrief, THREE_STAGE_BRIEF } from './support/three-stage-brief';

// The issue's first must-show, on the richest recorded scenario: article §8's three-stage brief
// on `npm start` (script, storyboard with its review card and the plan's budget card, three shots).
// While it runs, the tasks read model is sampled; every distinct snapshot is kept with the task
// stream revision it had applied. Afterwards, from the built CLI on the same data directory:
// - `stream show task-<id> --at <revision>` folds the task with its decider to each of those
//   revisions, and the state equals the snapshot on everything both describe;
// - `task inspect --prompts --json` lists every committed step with its consumed inbox items and
//   its prompt reference, and each printed prompt is byte-equal to the archived one.

const BRIEF = THREE_STAGE_BRIEF;

interface Snapshot {
  revision: number;
  doc: TaskDocument;
}

/** What the read model and the folded domain state both say, in one comparable shape. */
function comparableFromDocument(doc: TaskDocument) {
  return {
    goal: doc.goal,
    checklist: doc.checklist.map((i) => ({
      itemId: i.itemId,
      status: i.status,
      needs: i.needsConfirmation,
      note: i.note,
    })),
    checkpoints: doc.checkpoints
      .map((c) => ({ id: c.checkpointId, kind: c.kind, itemId: c.itemId, decision: c.resolution?.decision ?? null }))
      .sort((a, b) => a.id.localeCompare(b.id)),
    brief: doc.brief,
    autonomy: doc.autonomy,
    budgets: doc.planBudgets.map((b) => ({ budgetId: b.budgetId, amountMinor: b.amountMinor, currency: b.currency })),
  };
}

interface FoldedTask {
  status: string;
  goal: string;
  checklist: Array<{ itemId: string; status: string; needsConfirmation: boolean; note: string | null }>;
  checkpoints: Record<
    string,
    { checkpointId: string; kind: string; itemId: string | null; resolution: { decision: string } | null }
  >;
  brief: { version: number; text: string } | null;
  autonomy: string;
  budgets: Array<{ budgetId: string; amountMinor: number; currency: string }>;
}

function comparableFromState(state: FoldedTask) {
  return {
    goal: state.goal,
    checklist: state.checklist.map((i) => ({
      itemId: i.itemId,
      status: i.status,
      needs: i.needsConfirmation,
      note: i.note,
    })),
    checkpoints: Object.values(state.checkpoints)
      .map((c) => ({ id: c.checkpointId, kind: c.kind, itemId: c.itemId, decision: c.resolution?.decision ?? null }))
      .sort((a, b) => a.id.localeCompare(b.id)),
    // The read model shows the brief's text and version; the fold also keeps the call that wrote it.
    brief: state.brief === null ? null : { version: state.brief.version, text: state.brief.text },
    autonomy: state.autonomy,
    budgets: state.budgets.map((b) => ({ budgetId: b.budgetId, amountMinor: b.amountMinor, currency: b.currency })),
  };
}

describe('operator tools on the recorded three-stage brief', () => {
  let dataDir: string;
  let taskId: string;
  let operator: string;
  let workspaceId: string;
  const snapshots = new Map<number, Snapshot>();

  beforeAll(async () => {
    const recorded = await recordThreeStageBrief({
      whileRunning: async ({ api, workspaceId, taskId: id, done }) => {
        // Sample the read model while the scenario runs: each applied task revision seen is kept.
        const documents = new SqliteDocumentStore({ filename: path.join(api.dataDir, 'read-models.sqlite') });
        const readModels = new ReadModels(documents, new ProjectionAliases(documents, { cacheTtlMs: 0 }));
        try {
          while (!done()) {
            const doc = await readModels.getTask(workspaceId, id);
            const revision = (doc as { _streams?: Record<string, number> } | undefined)?._streams?.[`task-${id}`];
            if (doc !== undefined && typeof revision === 'number' && !snapshots.has(revision))
              snapshots.set(revision, { revision, doc: structuredClone(doc) });
            await new Promise((r) => setTimeout(r, 25));
          }
        } finally {
          await documents.close();
        }
      },
    });
    ({ dataDir, taskId, operator, workspaceId } = recorded);
  }, 300_000);
  afterAll(() => {
    if (dataDir !== undefined) rmSync(dataDir, { recursive: true, force: true });
  });

  const lomo = (args: string[]) =>
    runLomo(
      ['--json', '--token', operator, ...args],
      { LOMO_DATA_DIR: dataDir, LOMO_MODE: 'embedded' },
      { dist: true },
    );

  it('`stream show --at` reproduces the task at every revision the read model was captured at', async () => {
    expect(snapshots.size).toBeGreaterThanOrEqual(5);
    for (const { revision, doc } of [...snapshots.values()].sort((a, b) => a.revision - b.revision)) {
      const run = await lomo(['stream', 'show', `task-${taskId}`, '--at', String(revision)]);
      expect(run.code).toBe(0);
      const shown = JSON.parse(run.stdout.trim()) as {
        revision: number;
        folded: boolean;
        state: FoldedTask;
        events: unknown[];
      };
      expect(shown.revision).toBe(revision);
      expect(shown.folded).toBe(true);
      expect(shown.events).toHaveLength(revision + 1);
      expect({ revision, ...comparableFromState(shown.state) }).toEqual({ revision, ...comparableFromDocument(doc) });
    }
  }, 180_000);

  it('`task inspect --json` lists every step with its consumed inbox items and prompt reference; each prompt is byte-equal to the stored one', async () => {
    const run = await lomo(['task', 'inspect', taskId, '--prompts']);
    expect(run.code).toBe(0);
    const inspection = JSON.parse(run.stdout.trim()) as {
      steps: Array<{
        turnId: string;
        step: number;
        consumedItemIds: string[];
        consumedInboxItems: Array<{ itemId: string; text: unknown }>;
        promptRef: { hash: string } & Record<string, unknown>;
        prompt: { ref: unknown; canonicalJson: string };
      }>;
      inbox: Array<{ itemId: string; consumedBy: string | null }>;
    };

    // Every ModelStepCommitted of every turn of the task, read from the store itself.
    const store = new SqliteEventStore({ filename: path.join(dataDir, 'events.sqlite') });
    const archive = new PromptArchive(new FilesystemBlobStore(path.join(dataDir, 'blobs')));
    try {
      const turnIds = (await store.readStream(`task-${taskId}`))
        .filter((e) => e.type === 'TurnOpened')
        .map((e) => (e.data as { turnId: string }).turnId);
      const committed = [];
      for (const turnId of turnIds)
        for (const e of await store.readStream(`turn-${turnId}`))
          if (e.type === 'ModelStepCommitted')
            committed.push({ turnId, ...(e.data as { step: number; consumedItemIds: string[]; promptRef: never }) });
      expect(committed.length).toBeGreaterThanOrEqual(4);
      expect(inspection.steps.map((s) => `${s.turnId}#${s.step}`)).toEqual(
        committed.map((c) => `${c.turnId}#${c.step}`),
      );

      for (const [i, step] of inspection.steps.entries()) {
        expect(step.consumedItemIds).toEqual(committed[i].consumedItemIds);
        expect(step.consumedInboxItems.map((item) => item.itemId)).toEqual(committed[i].consumedItemIds);
        for (const item of step.consumedInboxItems)
          expect(inspection.inbox.find((x) => x.itemId === item.itemId)?.consumedBy).toBe(
            `${step.turnId}#${step.step}`,
          );
        expect(step.promptRef).toEqual(committed[i].promptRef);
        const stored = await archive.load(committed[i].promptRef);
        expect(stored).toBeDefined();
        expect(
          Buffer.from(step.prompt.canonicalJson, 'utf8').equals(
            Buffer.from(canonicalJson({ messages: stored!.messages, tools: stored!.tools }), 'utf8'),
          ),
        ).toBe(true);
      }
      // The brief was consumed by the first step.
      expect(inspection.steps[0].consumedInboxItems[0]?.text).toBe(BRIEF);
    } finally {
      await store.close();
    }
  }, 120_000);

  it('the recorded collaboration scores the ideal on every metric computed from its log', async () => {
    const store = new SqliteEventStore({ filename: path.join(dataDir, 'events.sqlite') });
    const archive = new PromptArchive(new FilesystemBlobStore(path.join(dataDir, 'blobs')));
    try {
      const events = await store.readAll();
      const metrics = await collaborationMetrics(
        {
          events,
          promptText: async (ref) => {
            const prompt = await archive.load(ref as never);
            return prompt === undefined ? null : canonicalJson(prompt.messages);
          },
        },
        { intendedTargets: new Map([[BRIEF, { new: 'video' }]]), forgottenTexts: [] },
      );
      const figures = metricFigures(metrics);
      expect({
        ...figures,
        findings: Object.values(metrics).flatMap((m) => ('findings' in m ? m.findings : [])),
      }).toMatchObject({ ...IDEAL_FIGURES, findings: [] });
      // Three videos were made and paid for within the approved plan budget, and approvals led on.
      expect(metrics.pace.deliveredArtifacts).toBeGreaterThanOrEqual(3);
      expect(Object.values(figures.cost_spent_minor).reduce((a, b) => a + b, 0)).toBeGreaterThan(0);
      expect(figures.approval_to_progress_ms_median).not.toBeNull();
    } finally {
      await store.close();
    }
  }, 60_000);

  it('`lomo metrics --json` prints the same figures for the workspace, with no finding', async () => {
    const run = await lomo(['metrics', '--workspace', workspaceId]);
    expect({ code: run.code, stderr: run.code === 0 ? '' : run.stderr }).toEqual({ code: 0, stderr: '' });
    const printed = JSON.parse(run.stdout.trim()) as {
      figures: Record<string, unknown>;
      findings: unknown[];
      events: number;
    };
    expect(printed.events).toBeGreaterThan(50);
    expect(printed.findings).toEqual([]);
    expect(printed.figures).toMatchObject({
      continue_prompts: 0,
      duplicate_generations: 0,
      cost_over_budget: 0,
      language_switches: 0,
    });
  }, 60_000);
});
