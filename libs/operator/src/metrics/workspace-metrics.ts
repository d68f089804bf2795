import type { Caller } from '@lomo/auth';
import type { BlobRef, BlobStore } from '@lomo/blobs';
import { canonicalJson, type EventEnvelope } from '@lomo/contracts';
import type { EventStore } from '@lomo/eventstore';
import { PromptArchive } from '@lomo/runtime';
import { assertOperator } from '../access/operator-access';
import { UnknownTargetError } from '../errors';
import { collaborationMetrics, type CollaborationMetrics } from './collaboration-metrics';
import type { ScenarioTruth } from './collaboration-log';

const PAGE = 1_000;

/**
 * `lomo metrics --workspace W`: the collaboration metrics of one workspace's whole log, its
 * archived prompts read for forgotten-reappearing (with `truth.forgottenTexts`). Operators only:
 * the log holds every person's private streams. Reads only.
 */
export async function workspaceMetrics(
  sources: { events: Pick<EventStore, 'readAll'>; blobs: Pick<BlobStore, 'get' | 'has'> },
  caller: Caller,
  workspaceId: string,
  truth: ScenarioTruth = {},
): Promise<{ workspaceId: string; events: number; metrics: CollaborationMetrics }> {
  assertOperator(caller, 'computing a workspace’s collaboration metrics');
  const events: EventEnvelope[] = [];
  for (let from: string | undefined; ;) {
    const page = await sources.events.readAll({
      ...(from !== undefined ? { fromPosition: from } : {}),
      maxCount: PAGE,
    });
    for (const e of page) if (e.metadata.workspaceId === workspaceId) events.push(e);
    if (page.length < PAGE) break;
    from = page[page.length - 1].metadata.globalPosition;
  }
  if (events.length === 0) throw new UnknownTargetError('workspace', workspaceId);
  const archive = new PromptArchive(sources.blobs as BlobStore);
  const metrics = await collaborationMetrics(
    {
      events,
      promptText: async (ref) => {
        const prompt = await archive.load(ref as BlobRef).catch(() => undefined);
        return prompt === undefined ? null : canonicalJson(prompt.messages);
      },
    },
    truth,
  );
  return { workspaceId, events: events.length, metrics };
}
