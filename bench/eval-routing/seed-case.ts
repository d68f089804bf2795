import { randomUUID } from 'node:crypto';
import { handleCommand } from '@lomo/command-handling';
import { deterministicUuid, streams, type Actor, type WriteMetadata } from '@lomo/contracts';
import {
  mainLineDecider,
  mainLineEventTypes,
  taskDecider,
  taskEventTypes,
  type MainLineCommand,
  type TaskCommand,
} from '@lomo/domain';
import type { EventStore } from '@lomo/eventstore';
import type { FakeArtifactBindings } from '@lomo/routing/testing';
import { buttonLabel, type RoutingCase } from './routing-cases';

/** The person every case is from (the harness's user). */
export const EVAL_USER = 'u1';

/** One workspace per case, so cases cannot see one another's tasks. */
export const workspaceFor = (c: RoutingCase) => `ev_${c.id.replace(/-/g, '_')}`;
export const taskIdOf = (c: RoutingCase, key: string) => deterministicUuid('lomo.eval.task', c.id, key);
export const artifactRefOf = (c: RoutingCase, key: string) =>
  `artifact:${deterministicUuid('lomo.eval.artifact', c.id, key)}`;
export const cardIdOf = (c: RoutingCase) => deterministicUuid('lomo.eval.card', c.id);

const person: Actor = { kind: 'user', userId: EVAL_USER };
const ids = { uuid: () => randomUUID() };
const meta = (workspaceId: string, actor: Actor = person): WriteMetadata => ({
  correlationId: 'eval-routing',
  causationId: null,
  workspaceId,
  actor,
});

/**
 * What the eval controls besides the event log: the artefact bindings (a fake until the workspace
 * projection supplies them), the store's clock (so a task's last activity is its case's "minutes
 * ago", as the routing index reads it from occurredAt), and the routing index's catch-up.
 */
export interface CandidateSource {
  bindings: FakeArtifactBindings;
  setClock(at: Date): void;
  /** Resolves when the routing index and the search index have applied everything appended. */
  catchUp(): Promise<void>;
}

/**
 * Writes the world a case describes through the deciders, as the platform would have left it:
 * task streams (created, summarised, paused/stopped/completed/archived), artefact bindings,
 * recent decisions and an open card on the person's main line; and the candidate index.
 */
export async function seedCase(store: EventStore, source: CandidateSource, c: RoutingCase, now: Date): Promise<void> {
  const ws = workspaceFor(c);
  const onTask = (taskId: string, commands: TaskCommand[], actor?: Actor) =>
    handleCommand(store, streams.task(taskId), taskDecider, () => commands, {
      eventTypes: taskEventTypes,
      metadata: meta(ws, actor),
      ids,
    });
  const onMain = (command: MainLineCommand, actor?: Actor) =>
    handleCommand(store, streams.main(ws, EVAL_USER), mainLineDecider, command, {
      eventTypes: mainLineEventTypes,
      metadata: meta(ws, actor),
      ids,
    });
  const router: Actor = { kind: 'system', component: 'router' };

  for (const t of c.tasks) {
    const taskId = taskIdOf(c, t.key);
    const originMessageId = deterministicUuid('lomo.eval.origin', c.id, t.key);
    source.setClock(new Date(now.getTime() - t.minutes * 60_000));
    await onTask(taskId, [
      { type: 'CreateTask', taskId, kind: t.kind, goal: t.goal, language: c.language, originMessageId },
      { type: 'UpdateTaskSummary', summary: t.summary, by: router },
    ]);
    const closing = closingCommands(t.status);
    if (closing.length > 0) await onTask(taskId, closing);
  }
  // What follows happened just now: recent decisions, an open card, the message itself.
  source.setClock(now);
  for (const a of c.artifacts ?? []) {
    const taskId = a.task === null ? null : taskIdOf(c, a.task);
    if (a.deleted) source.bindings.delete(ws, artifactRefOf(c, a.key), taskId);
    else if (taskId !== null) source.bindings.bind(ws, artifactRefOf(c, a.key), taskId);
  }
  for (const [i, r] of (c.recent ?? []).entries()) {
    const messageId = deterministicUuid('lomo.eval.recent', c.id, String(i));
    const taskId = taskIdOf(c, r.task);
    await onMain({
      type: 'ReceiveMessage',
      messageId,
      userId: EVAL_USER,
      text: r.text,
      language: c.language,
      channel: 'ui',
    });
    await onMain(
      { type: 'RecordRoutingDecision', messageId, outcome: 'existing', taskId, method: 'semantic', candidates: [] },
      router,
    );
    await onTask(taskId, [{ type: 'DeliverMessage', itemId: messageId, text: r.text, language: c.language }], router);
  }
  if (c.pending !== undefined) {
    const messageId = deterministicUuid('lomo.eval.asked', c.id);
    await onMain({
      type: 'ReceiveMessage',
      messageId,
      userId: EVAL_USER,
      text: c.pending.asked,
      language: c.language,
      channel: 'ui',
    });
    const options = c.pending.options.map((k, i) => ({
      optionId: `task-${i + 1}`,
      label: buttonLabel(i, c.tasks.find((t) => t.key === k)!.goal),
      action: 'route' as const,
      taskId: taskIdOf(c, k),
    }));
    const fresh = { optionId: 'new', label: c.answer === 'new' ? c.text : 'new', action: 'new' as const };
    await onMain(
      {
        type: 'RecordRoutingDecision',
        messageId,
        outcome: 'clarify',
        taskId: null,
        method: 'semantic',
        candidates: options.map((o) => ({ taskId: o.taskId, score: 0.5, source: 'recent' as const })),
        effects: {
          clarification: {
            cardId: cardIdOf(c),
            question: 'Which work is this for?',
            options: [...options, fresh],
            reason: 'ambiguous',
            language: c.language,
          },
        },
      },
      router,
    );
  }
  await source.catchUp();
}

function closingCommands(status: RoutingCase['tasks'][number]['status']): TaskCommand[] {
  switch (status) {
    case 'active':
      return [];
    case 'paused':
      return [{ type: 'PauseTask', by: person }];
    case 'stopped':
      return [{ type: 'StopTask', by: person }];
    case 'completed':
      return [{ type: 'CompleteTask' }];
    case 'archived':
      return [{ type: 'CompleteTask' }, { type: 'ArchiveTask', by: person }];
    default: {
      const never: never = status;
      return never;
    }
  }
}
