/**
 * `npm run export:routing-cases -- --data-dir <dir> [--out file]`: every correction in an
 * embedded event store ($LOMO_DATA_DIR/events.sqlite) as a labelled routing case in the format of
 * test/fixtures/routing/ (bench/eval-routing/routing-cases.ts), class `semantic`:
 * - `MessageMoved`: the message belonged to the task it was moved to;
 * - `TasksMerged` (on the source): the source's first message was a duplicate of the target;
 * - `ClarificationAnswered`: the message the card asked about belongs to the chosen task (or to
 *   new work, when the person chose "start a new one" or reopened a closed task).
 * Each case carries the tasks of the workspace as they were when the message arrived: goal,
 * summary, kind, status and minutes since their last event. A later correction of the same
 * message replaces an earlier one (the last word is the person's). Writes JSON to --out or stdout.
 */
import { writeFileSync } from 'node:fs';
import * as path from 'node:path';
import { parseArgs } from 'node:util';
import type { EventEnvelope } from '@lomo/contracts';
import { SqliteEventStore } from '@lomo/eventstore';
import type { RoutingCase } from '../bench/eval-routing/routing-cases';

type Status = RoutingCase['tasks'][number]['status'];
interface TaskAt {
  taskId: string;
  goal: string;
  summary: string;
  kind: 'persistent' | 'lightweight';
  status: Status;
  lastAt: number;
  originMessageId: string;
}
interface MessageAt {
  messageId: string;
  workspaceId: string;
  text: string;
  language: string;
  at: number;
  /** The workspace's tasks when the message arrived. */
  tasks: TaskAt[];
}
type Option = { optionId: string; action: 'route' | 'new' | 'reopen'; taskId?: string };

const LANGUAGES: readonly string[] = ['en', 'zh-Hans', 'zh-Hant'];
const statusAfter: Record<string, Status> = {
  TaskPaused: 'paused',
  TaskResumed: 'active',
  TaskStopped: 'stopped',
  TaskCompleted: 'completed',
  TaskArchived: 'archived',
};

export interface ExportResult {
  cases: RoutingCase[];
  /** Corrections that could not become a case, and why. */
  skipped: string[];
}

/** Folds the log in order and turns each correction into a case (pure: the events in, the cases out). */
export function exportRoutingCases(events: readonly EventEnvelope[]): ExportResult {
  const tasks = new Map<string, Map<string, TaskAt>>();
  const messages = new Map<string, MessageAt>();
  const cards = new Map<string, Option[]>();
  const decisions = new Map<string, { outcome: string; taskId: string | null }>();
  const labels = new Map<string, { kind: string; expected: string | null }>();
  const skipped: string[] = [];
  const tasksOf = (ws: string) => tasks.get(ws) ?? tasks.set(ws, new Map()).get(ws)!;

  for (const e of events) {
    const ws = e.metadata.workspaceId;
    const at = Date.parse(e.metadata.occurredAt);
    const data = e.data as Record<string, unknown>;
    const taskId = e.metadata.streamId.startsWith('task-') ? e.metadata.streamId.slice('task-'.length) : undefined;
    const task = taskId === undefined ? undefined : tasksOf(ws).get(taskId);
    if (task !== undefined) task.lastAt = at;
    switch (e.type) {
      case 'UserMessageReceived':
        messages.set(data.messageId as string, {
          messageId: data.messageId as string,
          workspaceId: ws,
          text: data.text as string,
          language: data.language as string,
          at,
          tasks: [...tasksOf(ws).values()].map((t) => ({ ...t })),
        });
        break;
      case 'TaskCreated':
        tasksOf(ws).set(data.taskId as string, {
          taskId: data.taskId as string,
          goal: data.goal as string,
          summary: '',
          kind: data.kind as TaskAt['kind'],
          status: 'active',
          lastAt: at,
          originMessageId: data.originMessageId as string,
        });
        break;
      case 'TaskSummaryUpdated':
        if (task) task.summary = data.summary as string;
        break;
      case 'TaskUpgraded':
        if (task) task.kind = 'persistent';
        break;
      case 'TaskPaused':
      case 'TaskResumed':
      case 'TaskStopped':
      case 'TaskCompleted':
      case 'TaskArchived':
        if (task) task.status = statusAfter[e.type]!;
        break;
      case 'RoutingDecided':
        decisions.set(data.messageId as string, {
          outcome: data.outcome as string,
          taskId: data.taskId as string | null,
        });
        break;
      case 'ClarificationRequested':
        cards.set(data.cardId as string, data.options as Option[]);
        break;
      case 'MessageMoved':
        labels.set(data.messageId as string, { kind: 'moved', expected: data.toTaskId as string });
        break;
      case 'TasksMerged':
        if (data.role === 'source' && task !== undefined)
          labels.set(task.originMessageId, { kind: 'merged', expected: data.targetTaskId as string });
        break;
      case 'ClarificationAnswered': {
        const option = (cards.get(data.cardId as string) ?? []).find((o) => o.optionId === data.optionId);
        const typed = data.optionId === undefined ? decisions.get(data.answerMessageId as string) : undefined;
        const expected =
          option !== undefined
            ? option.action === 'route'
              ? (option.taskId ?? null)
              : null
            : typed?.outcome === 'existing'
              ? typed.taskId
              : typed?.outcome === 'new'
                ? null
                : undefined;
        if (expected === undefined) skipped.push(`card ${String(data.cardId)}: the answer names no task or new work`);
        else labels.set(data.messageId as string, { kind: 'answered', expected });
        break;
      }
      default:
        break;
    }
  }

  const cases: RoutingCase[] = [];
  for (const [messageId, label] of labels) {
    const message = messages.get(messageId);
    if (message === undefined) {
      skipped.push(`${label.kind} ${messageId}: the message is not in this store`);
      continue;
    }
    if (!LANGUAGES.includes(message.language)) {
      skipped.push(`${label.kind} ${messageId}: language ${message.language} is not one the eval set covers`);
      continue;
    }
    const keyOf = new Map(message.tasks.map((t, i) => [t.taskId, `t${i + 1}`]));
    const expectedKey = label.expected === null ? null : keyOf.get(label.expected);
    if (expectedKey === undefined) {
      skipped.push(`${label.kind} ${messageId}: task ${label.expected} did not exist when the message arrived`);
      continue;
    }
    cases.push({
      id: `corr-${label.kind}-${messageId.slice(0, 8)}${messageId.slice(-4)}`,
      class: 'semantic',
      language: message.language as RoutingCase['language'],
      text: message.text,
      tasks: message.tasks.map((t) => ({
        key: keyOf.get(t.taskId)!,
        goal: t.goal,
        summary: t.summary.length > 0 ? t.summary : t.goal,
        kind: t.kind,
        status: t.status,
        minutes: Math.max(0, Math.floor((message.at - t.lastAt) / 60_000)),
      })),
      expected: { outcome: expectedKey === null ? 'new' : 'existing', task: expectedKey },
    });
  }
  return { cases, skipped };
}

async function main(): Promise<void> {
  const { values } = parseArgs({
    options: { 'data-dir': { type: 'string' }, out: { type: 'string' } },
    strict: true,
  });
  const dataDir = values['data-dir'] ?? process.env.LOMO_DATA_DIR;
  if (dataDir === undefined) {
    console.error('usage: npm run export:routing-cases -- --data-dir <dir> [--out file]');
    process.exit(2);
  }
  const store = new SqliteEventStore({ filename: path.join(dataDir, 'events.sqlite') });
  try {
    const { cases, skipped } = exportRoutingCases(await store.readAll());
    const json = `${JSON.stringify(
      { group: 'corrections', about: 'Corrections people made, exported from an event store.', cases },
      null,
      2,
    )}\n`;
    if (values.out === undefined) process.stdout.write(json);
    else writeFileSync(values.out, json);
    for (const s of skipped) console.error(`skipped: ${s}`);
    console.error(`export:routing-cases: ${cases.length} cases, ${skipped.length} skipped`);
  } finally {
    await store.close();
  }
}

if (require.main === module)
  main().catch((error: unknown) => {
    console.error(error);
    process.exit(1);
  });
