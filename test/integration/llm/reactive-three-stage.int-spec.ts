import { rmSync } from 'node:fs';
import * as path from 'node:path';
import { canonicalJson } from '@lomo/contracts';
import { FilesystemBlobStore } from '@lomo/blobs';
import { SqliteEventStore } from '@lomo/eventstore';
import { collaborationMetrics, IDEAL_FIGURES, metricFigures } from '@lomo/operator';
import { PromptArchive } from '@lomo/runtime';
import { recordThreeStageBrief, THREE_STAGE_BRIEF } from '../operator/support/three-stage-brief';

// Article §8's three-stage brief (script → storyboard with its review and budget cards → three
// shots) on the standalone app with LOMO_MODEL_PROVIDER=reactive: the reactive test policy works
// each stage it may in the turn it is in (rule 1), stops at the review, and after the approvals
// makes the shots; the collaboration, scored from the event log, is ideal on every metric.

describe('the reactive model on the three-stage brief', () => {
  let dataDir = '';
  afterAll(() => {
    if (dataDir !== '') rmSync(dataDir, { recursive: true, force: true });
  });

  it('completes the checklist with the ideal figures on every metric', async () => {
    const recorded = await recordThreeStageBrief({ env: { LOMO_MODEL_PROVIDER: 'reactive' } });
    dataDir = recorded.dataDir;
    const store = new SqliteEventStore({ filename: path.join(dataDir, 'events.sqlite') });
    const archive = new PromptArchive(new FilesystemBlobStore(path.join(dataDir, 'blobs')));
    try {
      const events = await store.readAll();
      // Rule 1: script and storyboard in the turn of the person's message (no continuation turn
      // the offline policy needs), the shots in the approval turn; nothing else.
      const turns = events.filter((e) => e.type === 'TurnStarted').map((e) => (e.data as { reason: string }).reason);
      expect(turns).toEqual(['message', 'approval']);
      const calls = events
        .filter((e) => e.type === 'ModelStepCommitted')
        .flatMap((e) => (e.data as { toolCallIntents: Array<{ tool: string }> }).toolCallIntents.map((c) => c.tool));
      expect(calls).toEqual([
        'brief.update',
        'checklist.plan',
        'document.write',
        'checklist.update',
        'document.write',
        'checklist.update',
        'video.generate',
        'video.generate',
        'video.generate',
        'checklist.update',
      ]);
      const metrics = await collaborationMetrics(
        {
          events,
          promptText: async (ref) => {
            const prompt = await archive.load(ref as never);
            return prompt === undefined ? null : canonicalJson(prompt.messages);
          },
        },
        { intendedTargets: new Map([[THREE_STAGE_BRIEF, { new: 'video' }]]), forgottenTexts: [] },
      );
      const figures = metricFigures(metrics);
      expect({
        ...figures,
        findings: Object.values(metrics).flatMap((m) => ('findings' in m ? m.findings : [])),
      }).toMatchObject({ ...IDEAL_FIGURES, findings: [] });
      expect(metrics.pace.deliveredArtifacts).toBeGreaterThanOrEqual(3);
    } finally {
      await store.close();
    }
  }, 300_000);
});
