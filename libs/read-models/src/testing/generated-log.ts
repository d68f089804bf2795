import Database from 'better-sqlite3';
import { eventRegistry, streams } from '@lomo/contracts';

/**
 * A large, valid event log for the first slice's projections, written fast: the projection bench
 * (bench/projections.ts) and the rebuild drill (scripts/drills/rebuild-million.ts) both use it.
 * Tasks live their lives interleaved at random (seeded): messages, routing, turns with steps and
 * tool calls. Every event is a valid contract event.
 */
export interface GeneratedEvent {
  streamId: string;
  type: string;
  data: Record<string, unknown>;
}

export interface GeneratedLogOptions {
  workspaceId?: string;
  users?: number;
  /** Tasks worked on at the same time: how interleaved the log is. */
  concurrentTasks?: number;
  turnsPerTask?: number;
  stepsPerTurn?: number;
  /** Ids of the log's events and entities; pass the same generator to whatever appends later. */
  nextUuid?: () => string;
}

/** Valid v4-shaped uuids from a counter: unique, cheap, and readable in a debugger. */
export function counterUuids(): () => string {
  let counter = 0;
  return () => {
    const hex = (counter++).toString(16).padStart(20, '0');
    return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-4${hex.slice(12, 15)}-8${hex.slice(15, 18)}-${hex.slice(18)}000000000000`.slice(
      0,
      36,
    );
  };
}

const promptRef = { hash: 'b'.repeat(64), bytes: 2_048, contentType: 'application/json' };

interface Shape {
  workspaceId: string;
  users: number;
  turnsPerTask: number;
  stepsPerTurn: number;
  nextUuid: () => string;
}

/** The events of one task's life, in its own order: messages, routing, turns with steps and calls. */
function* taskLife(index: number, shape: Shape): Generator<GeneratedEvent> {
  const { nextUuid } = shape;
  const userId = `u${index % shape.users}`;
  const main = streams.main(shape.workspaceId, userId);
  const taskId = nextUuid();
  const task = streams.task(taskId);
  const message = function* (text: string, outcome: 'new' | 'existing'): Generator<GeneratedEvent> {
    const messageId = nextUuid();
    yield {
      streamId: main,
      type: 'UserMessageReceived',
      data: { messageId, userId, text, language: 'en', channel: 'ui' },
    };
    yield {
      streamId: main,
      type: 'RoutingDecided',
      data: { messageId, outcome, taskId, method: 'semantic', candidates: [] },
    };
    yield {
      streamId: task,
      type: 'MessageDeliveredToInbox',
      data: { itemId: messageId, messageId, text, language: 'en' },
    };
    return messageId;
  };
  const first = nextUuid();
  yield {
    streamId: main,
    type: 'UserMessageReceived',
    data: { messageId: first, userId, text: `Task ${index}`, language: 'en', channel: 'ui' },
  };
  yield {
    streamId: main,
    type: 'RoutingDecided',
    data: { messageId: first, outcome: 'new', taskId, method: 'semantic', candidates: [] },
  };
  yield {
    streamId: task,
    type: 'TaskCreated',
    data: { taskId, kind: 'persistent', goal: `Goal of task ${index}`, language: 'en', originMessageId: first },
  };
  yield {
    streamId: task,
    type: 'MessageDeliveredToInbox',
    data: { itemId: first, messageId: first, text: `Task ${index}`, language: 'en' },
  };
  let pending = [first];
  for (let t = 0; t < shape.turnsPerTask; t += 1) {
    const turnId = nextUuid();
    const turn = streams.turn(turnId);
    yield { streamId: task, type: 'TurnOpened', data: { turnId, reason: 'message' } };
    yield { streamId: turn, type: 'TurnStarted', data: { turnId, taskId, reason: 'message' } };
    yield {
      streamId: turn,
      type: 'TurnLeased',
      data: { workerId: 'worker-1', generation: 1, leaseUntil: '2030-01-01T00:00:00.000Z' },
    };
    yield { streamId: task, type: 'InboxItemsClaimed', data: { turnId, step: 1, itemIds: pending } };
    for (let step = 1; step <= shape.stepsPerTurn; step += 1) {
      const callId = `${turnId}:${step}:0`;
      yield {
        streamId: turn,
        type: 'ModelStepCommitted',
        data: {
          step,
          reply: `Step ${step} of turn ${t}: working on it.`,
          toolCallIntents: [{ callId, tool: 'notes.write', arguments: { n: step } }],
          consumedItemIds: step === 1 ? pending : [],
          usage: { inputTokens: 900, outputTokens: 120 },
          promptRef,
          finishReason: 'tool_calls',
        },
      };
      yield {
        streamId: turn,
        type: 'ToolCallStarted',
        data: { callId, tool: 'notes.write', idempotencyKey: callId, attempt: 1 },
      };
      yield { streamId: turn, type: 'ToolCallCompleted', data: { callId, status: 'ok', result: { ok: true } } };
    }
    yield { streamId: turn, type: 'TurnCompleted', data: { steps: shape.stepsPerTurn } };
    yield { streamId: task, type: 'TurnClosed', data: { turnId, outcome: 'completed' } };
    if (t < shape.turnsPerTask - 1) pending = [yield* message(`Follow-up ${t} on task ${index}`, 'existing')];
  }
  yield {
    streamId: main,
    type: 'TaskCardShown',
    data: { cardId: nextUuid(), taskId, title: `Task ${index}`, status: 'completed' },
  };
  yield { streamId: task, type: 'TaskCompleted', data: { summary: 'done' } };
}

/** `total` events: task lives interleaved at random (seeded), as tasks overlap in real use. */
export function* generatedLog(total: number, options: GeneratedLogOptions = {}): Generator<GeneratedEvent> {
  const shape: Shape = {
    workspaceId: options.workspaceId ?? 'bench',
    users: options.users ?? 20,
    turnsPerTask: options.turnsPerTask ?? 5,
    stepsPerTurn: options.stepsPerTurn ?? 3,
    nextUuid: options.nextUuid ?? counterUuids(),
  };
  const concurrent = options.concurrentTasks ?? 64;
  let seed = 42;
  const random = () => (seed = (seed * 1_103_515_245 + 12_345) % 2_147_483_648) / 2_147_483_648;
  const active: Array<Generator<GeneratedEvent>> = [];
  let started = 0;
  for (let produced = 0; produced < total;) {
    while (active.length < concurrent) active.push(taskLife(started++, shape));
    const slot = Math.floor(random() * active.length);
    const next = active[slot].next();
    if (next.done) {
      active.splice(slot, 1);
      continue;
    }
    produced += 1;
    yield next.value;
  }
}

export interface WrittenLog {
  events: number;
  tasks: number;
  millis: number;
}

/**
 * Writes `total` generated events into a SQLite event store file with plain inserts (one
 * transaction per 50 000 rows, synchronous=OFF on this connection): appending a million single
 * events through the store would take minutes and measure the store. Open a SqliteEventStore on
 * the file first (it creates the table); `onProgress` after each transaction.
 */
export function writeGeneratedLog(
  filename: string,
  total: number,
  options: GeneratedLogOptions & { onProgress?: (events: number) => void } = {},
): WrittenLog {
  const started = performance.now();
  const nextUuid = options.nextUuid ?? counterUuids();
  const db = new Database(filename);
  db.pragma('journal_mode = WAL');
  db.pragma('synchronous = OFF');
  const insert = db.prepare(
    'INSERT INTO events (stream_id, revision, event_id, type, schema_version, data, metadata, occurred_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?)',
  );
  const metadata = JSON.stringify({
    correlationId: 'bench',
    causationId: null,
    workspaceId: options.workspaceId ?? 'bench',
    actor: { kind: 'agent' },
  });
  const revisions = new Map<string, number>();
  const versions = new Map(eventRegistry.all().map((d) => [d.type, d.version]));
  const t0 = Date.parse('2025-01-01T00:00:00.000Z');
  let rows: Array<[string, number, string, string, number, string, string, string]> = [];
  const flush = db.transaction((batch: typeof rows) => {
    for (const row of batch) insert.run(...row);
  });
  let count = 0;
  for (const event of generatedLog(total, { ...options, nextUuid })) {
    const revision = (revisions.get(event.streamId) ?? -1) + 1;
    revisions.set(event.streamId, revision);
    const occurredAt = new Date(t0 + count * 10).toISOString();
    rows.push([
      event.streamId,
      revision,
      nextUuid(),
      event.type,
      versions.get(event.type) ?? 1,
      JSON.stringify(event.data),
      metadata,
      occurredAt,
    ]);
    count += 1;
    if (rows.length === 50_000) {
      flush(rows);
      rows = [];
      options.onProgress?.(count);
    }
  }
  flush(rows);
  db.close();
  const tasks = [...revisions.keys()].filter((s) => s.startsWith('task-')).length;
  return { events: count, tasks, millis: performance.now() - started };
}
