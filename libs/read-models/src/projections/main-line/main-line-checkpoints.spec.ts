import fc from 'fast-check';
import { streams, type EventEnvelope } from '@lomo/contracts';
import { evolveDocument } from '../engine/evolve-document';
import { ownershipViolations } from '../engine/field-ownership';
import { asKnownEvent } from '../engine/known-event';
import { eraseProjectionType, type ProjectionDocument } from '../engine/projection-definition';
import { revisionIn } from '../engine/stream-revisions';
import { checkpointsItemId } from './main-line-checkpoints';
import type { MainLineDocument } from './main-line.document';
import { mainLineProjection } from './main-line.projection';

// A task's checkpoint cards as a main-line item: the owner from the creating routing decision
// (main stream), the cards from the task stream. The engine's rules, checked on a small log:
// each field from its own stream, and any interleaving of the streams (each in its own order,
// events repeated) gives the documents of the log applied in order.

const projection = eraseProjectionType(mainLineProjection);
const WS = 'ws1';
const taskT = '7a7a7a7a-0000-4000-8000-000000000001';
const taskU = '7a7a7a7a-0000-4000-8000-000000000002';
const orphan = '7a7a7a7a-0000-4000-8000-000000000003';
const m1 = '1b1b1b1b-0000-4000-8000-000000000001';
const m2 = '1b1b1b1b-0000-4000-8000-000000000002';
const m3 = '1b1b1b1b-0000-4000-8000-000000000003';
const cp = (n: number) => `2c2c2c2c-0000-4000-8000-00000000000${n}`;
const turn = '3d3d3d3d-0000-4000-8000-000000000001';
const quote = '4e4e4e4e-0000-4000-8000-000000000001';

const system = { kind: 'system', component: 'router' } as const;
const person = (userId: string) => ({ kind: 'user', userId }) as const;

function logOf(): EventEnvelope[] {
  const revisions = new Map<string, number>();
  let position = 0;
  const log: EventEnvelope[] = [];
  const add = (streamId: string, type: string, data: unknown, actor: EventEnvelope['metadata']['actor'] = system) => {
    const revision = (revisions.get(streamId) ?? -1) + 1;
    revisions.set(streamId, revision);
    position += 1;
    log.push({
      type,
      data,
      metadata: {
        eventId: `5f5f5f5f-0000-4000-8000-${String(position).padStart(12, '0')}`,
        streamId,
        revision,
        globalPosition: String(position),
        occurredAt: new Date(Date.UTC(2026, 0, 1, 0, 0, position)).toISOString(),
        correlationId: 'c',
        causationId: null,
        workspaceId: WS,
        actor,
        schemaVersion: 1,
      },
    });
  };
  const u1 = streams.main(WS, 'u1');
  const u2 = streams.main(WS, 'u2');
  const message = (messageId: string, userId: string) => ({
    messageId,
    userId,
    text: 'Make a short video',
    language: 'en',
    channel: 'ui',
  });
  const routed = (messageId: string, outcome: string, taskId: string) => ({
    messageId,
    outcome,
    taskId,
    method: 'semantic',
    candidates: [],
  });
  add(u1, 'UserMessageReceived', message(m1, 'u1'), person('u1'));
  add(u1, 'RoutingDecided', routed(m1, 'new', taskT));
  add(streams.task(taskT), 'TaskCreated', {
    taskId: taskT,
    kind: 'persistent',
    goal: 'Video',
    language: 'en',
    originMessageId: m1,
  });
  add(streams.task(taskT), 'CheckpointOpened', {
    checkpointId: cp(1),
    turnId: turn,
    kind: 'review',
    question: 'Is the storyboard right?',
    itemId: 'storyboard',
  });
  add(streams.task(taskT), 'CheckpointOpened', {
    checkpointId: cp(2),
    turnId: turn,
    kind: 'budget',
    question: 'Approve 3 videos for 1.20 USD?',
    planQuote: {
      amountMinor: 120,
      currency: 'USD',
      totalMinor: 120,
      approvedMinor: 0,
      lines: [{ itemId: 'shots', media: 'video', count: 3, amountMinor: 120 }],
    },
  });
  // The agent cannot resolve a card; the person's first decision stands.
  add(
    streams.task(taskT),
    'CheckpointResolved',
    { checkpointId: cp(2), decision: 'approve', resolvedBy: 'u1' },
    { kind: 'agent' },
  );
  add(u1, 'UserMessageReceived', message(m2, 'u1'), person('u1'));
  add(u1, 'RoutingDecided', routed(m2, 'existing', taskT));
  add(
    streams.task(taskT),
    'CheckpointResolved',
    { checkpointId: cp(2), decision: 'approve', resolvedBy: 'u1' },
    person('u1'),
  );
  add(
    streams.task(taskT),
    'CheckpointResolved',
    { checkpointId: cp(2), decision: 'reject', resolvedBy: 'u1' },
    person('u1'),
  );
  add(streams.task(taskT), 'CheckpointOpened', {
    checkpointId: cp(3),
    turnId: turn,
    kind: 'approval',
    callId: `${turn}:2:0`,
    question: 'Generate shot 1 for 0.40 USD?',
    callQuote: { quoteId: quote, amountMinor: 40, currency: 'USD' },
  });
  // Another person's task: its cards go to that person's line.
  add(u2, 'UserMessageReceived', message(m3, 'u2'), person('u2'));
  add(u2, 'RoutingDecided', routed(m3, 'lightweight', taskU));
  add(streams.task(taskU), 'CheckpointOpened', {
    checkpointId: cp(4),
    turnId: turn,
    kind: 'question',
    question: 'Which colour?',
  });
  // A task no routing decision names (none in practice): its cards are nobody's line.
  add(streams.task(orphan), 'CheckpointOpened', {
    checkpointId: cp(5),
    turnId: turn,
    kind: 'question',
    question: 'Anyone?',
  });
  return log;
}

/** The engine's rules on documents: an event applies once, as the next revision of its stream. */
function fold(deliveries: readonly EventEnvelope[]) {
  const documents = new Map<string, ProjectionDocument>();
  const applied = new Map<string, number>();
  const violations: unknown[] = [];
  for (const envelope of deliveries) {
    const { streamId, revision } = envelope.metadata;
    if (revision <= (applied.get(streamId) ?? -1)) continue;
    applied.set(streamId, revision);
    const event = asKnownEvent(envelope)!;
    if (!projection.handles.includes(event.type)) continue;
    const ids = projection.documentIds(event, { knownTaskOfTurn: () => undefined, taskOfTurn: async () => undefined });
    for (const id of ids as readonly string[]) {
      const before = documents.get(id);
      if (before !== undefined && revisionIn(before._streams, streamId) >= revision) continue;
      const after = evolveDocument(projection, before, id, event);
      violations.push(...ownershipViolations(projection, before, after, event));
      documents.set(id, after);
    }
  }
  return { documents: Object.fromEntries([...documents].sort(([a], [b]) => a.localeCompare(b))), violations };
}

/** Each stream's events in order, 1-3 copies each, streams interleaved by `picks`. */
function interleave(log: readonly EventEnvelope[], copies: readonly number[], picks: readonly number[]) {
  const queues = new Map<string, EventEnvelope[]>();
  log.forEach((event, i) => {
    const queue = queues.get(event.metadata.streamId) ?? [];
    for (let c = 0; c < copies[i]; c += 1) queue.push(event);
    queues.set(event.metadata.streamId, queue);
  });
  const out: EventEnvelope[] = [];
  for (let k = 0; ; k += 1) {
    const open = [...queues.values()].filter((q) => q.length > 0);
    if (open.length === 0) return out;
    out.push(open[picks[k % picks.length] % open.length].shift()!);
  }
}

describe('main_line: a task’s checkpoint cards as an item of their own', () => {
  const log = logOf();
  const inOrder = fold(log);
  const item = (taskId: string) => inOrder.documents[checkpointsItemId(taskId)] as MainLineDocument | undefined;
  const at = (n: number) => log[n - 1].metadata.occurredAt;

  it('shows the cards on the line of the person whose message created the task, resolved by the person only', () => {
    expect(item(taskT)).toMatchObject({
      kind: 'checkpoints',
      userId: 'u1',
      seq: null,
      // The latest card's opening places the item on the line.
      at: at(11),
      routing: null,
      checkpoints: {
        taskId: taskT,
        lastOpenedAt: at(11),
        cards: [
          { checkpointId: cp(1), kind: 'review', itemId: 'storyboard', resolution: null, planQuote: null },
          {
            checkpointId: cp(2),
            kind: 'budget',
            planQuote: { amountMinor: 120, lines: [{ itemId: 'shots', media: 'video', count: 3, amountMinor: 120 }] },
            resolution: { decision: 'approve', resolvedBy: 'u1', resolvedAt: at(9), note: null, choice: null },
          },
          {
            checkpointId: cp(3),
            kind: 'approval',
            callId: `${turn}:2:0`,
            callQuote: { quoteId: quote, amountMinor: 40, currency: 'USD' },
            resolution: null,
          },
        ],
      },
    });
    expect(item(taskU)).toMatchObject({ kind: 'checkpoints', userId: 'u2' });
    expect(item(orphan)).toMatchObject({ kind: 'checkpoints', userId: null });
    // Messages keep their shape, and the routing decision that named the task stays on its message.
    expect(inOrder.documents[m1]).toMatchObject({
      kind: 'message',
      userId: 'u1',
      seq: 0,
      at: at(1),
      checkpoints: null,
      routing: { outcome: 'new', taskId: taskT },
    });
  });

  it('writes each field from its own stream, and derived fields as derive() computes them', () => {
    expect(inOrder.violations).toEqual([]);
  });

  it('any interleaving of the streams, with events repeated, gives the documents of the log in order', () => {
    fc.assert(
      fc.property(
        fc.array(fc.integer({ min: 1, max: 3 }), { minLength: log.length, maxLength: log.length }),
        fc.array(fc.nat({ max: 1_000 }), { minLength: 1, maxLength: 3 * log.length }),
        (copies, picks) => {
          const live = fold(interleave(log, copies, picks));
          expect(live.violations).toEqual([]);
          expect(live.documents).toEqual(inOrder.documents);
        },
      ),
      { numRuns: 200 },
    );
  });
});
