import type { Command } from 'commander';
import { logOperatorRead } from '@lomo/auth';
import type { EventEnvelope } from '@lomo/contracts';
import {
  inspectTask,
  inspectTurn,
  isPurged,
  parseStreamPoint,
  readStreamAt,
  tailEvents,
  type InspectedStep,
  type TimelineEntry,
} from '@lomo/operator';
import { wholeNumber } from '../cli-options';
import type { CliContext } from '../cli-context';
import { commandGroup } from '../command-group';

const shown = (value: unknown): string =>
  isPurged(value) ? `[purged: ${value.reason}]` : typeof value === 'string' ? value : JSON.stringify(value);

const eventRow = (e: EventEnvelope) => [
  e.metadata.globalPosition,
  e.metadata.occurredAt,
  e.metadata.streamId,
  e.metadata.revision,
  e.type,
  e.metadata.workspaceId,
];
const EVENT_COLUMNS = ['position', 'occurredAt', 'stream', 'rev', 'type', 'workspace'];

const timelineTable = (entries: readonly TimelineEntry[]) => ({
  columns: ['occurredAt', 'kind', 'stream', 'rev', 'actor', 'gen', 'summary'],
  rows: entries.map((t) => [t.occurredAt, t.kind, t.streamId, t.revision, t.actor, t.generation, t.summary]),
});

const stepLine = (s: InspectedStep) =>
  `  step ${s.step} of turn ${s.turnId} at ${s.committedAt} (generation ${s.generation ?? '-'})` +
  `\n    consumed: ${s.consumedInboxItems.map((i) => `${i.itemId} "${shown(i.text)}"`).join(', ') || 'nothing'}` +
  `\n    reply: ${s.reply === null ? '-' : shown(s.reply)}` +
  `\n    tool calls: ${s.toolCallIntents.map((c) => `${c.tool} ${c.callId}`).join(', ') || 'none'}` +
  `\n    ledger: ${s.ledger.map((l) => `${l.tool} ${l.callId} ${l.status}`).join(', ') || 'empty'}` +
  (s.prompt === undefined
    ? ''
    : `\n    prompt: ${isPurged(s.prompt.layers) ? shown(s.prompt.layers) : s.prompt.layers.map((l) => `${l.layer} (${l.tokens} tokens, ${l.messages.length} messages)`).join(', ')}`);

/** `lomo events tail`, `lomo stream show`, `lomo task inspect`, `lomo turn inspect`: reads only. */
export function registerInspectCommands(program: Command, ctx: CliContext): void {
  program
    .command('events')
    .description('read the event log')
    .command('tail')
    .description('events in global order, filtered; --follow keeps printing new ones until Ctrl-C')
    .option('--stream <streamId>', 'one stream')
    .option('--type <EventType>', 'one event type')
    .option('--workspace <workspaceId>', 'one workspace (another than your token’s needs an operator token)')
    .option('--from <position>', 'after this global position')
    .option('--limit <n>', 'at most n events', wholeNumber('--limit'))
    .option('--follow', 'wait for new events')
    .addHelpText(
      'after',
      '\nExamples:\n  lomo events tail --workspace acme --type TurnCompleted --limit 20\n  lomo events tail --stream task-<id> --follow --json',
    )
    .action(
      async (o: {
        stream?: string;
        type?: string;
        workspace?: string;
        from?: string;
        limit?: number;
        follow?: boolean;
      }) => {
        const caller = await ctx.caller();
        const { events, blobs } = await ctx.openStores();
        logOperatorRead(ctx.audit, caller, {
          path: 'cli events tail',
          workspaceId: o.workspace ?? '*',
          ...(o.stream ? { streamId: o.stream } : {}),
        });
        const rows: EventEnvelope[] = [];
        for await (const event of tailEvents(
          { events, blobs },
          caller,
          {
            ...(o.stream !== undefined ? { streamId: o.stream } : {}),
            ...(o.type !== undefined ? { type: o.type } : {}),
            ...(o.workspace !== undefined ? { workspaceId: o.workspace } : {}),
            ...(o.from !== undefined ? { fromPosition: o.from } : {}),
          },
          { follow: o.follow === true, signal: ctx.signal, ...(o.limit !== undefined ? { limit: o.limit } : {}) },
        )) {
          if (ctx.out.json) ctx.out.result(event);
          else if (o.follow === true)
            ctx.out.line(
              eventRow(event)
                .map((c) => String(c))
                .join('  '),
            );
          else rows.push(event);
        }
        if (!ctx.out.json && o.follow !== true)
          ctx.out.result(rows, { columns: EVENT_COLUMNS, rows: rows.map(eventRow) });
      },
    );

  program
    .command('stream')
    .description('one stream')
    .command('show')
    .description("the aggregate's state folded with its decider up to a point, and the events that led there")
    .argument('<streamId>')
    .option('--at <point>', 'a revision (12), a global position (pos:<position>) or a time (2026-12-06T10:00:00Z)')
    .option('--events', 'print the events too (always in --json)')
    .addHelpText(
      'after',
      '\nExamples:\n  lomo stream show task-<id> --at 12\n  lomo stream show turn-<id> --at 2026-12-06T10:00:00Z --json',
    )
    .action(async (streamId: string, o: { at?: string; events?: boolean }) => {
      const point = o.at === undefined ? undefined : parseStreamPoint(o.at);
      const caller = await ctx.caller();
      const { events, blobs } = await ctx.openStores();
      const result = await readStreamAt({ events, blobs }, caller, streamId, point);
      logOperatorRead(ctx.audit, caller, { path: 'cli stream show', workspaceId: result.workspaceId, streamId });
      if (ctx.out.json) return ctx.out.result(result);
      ctx.out.line(
        `${result.streamId} at revision ${result.revision} of ${result.headRevision} (position ${result.position}, ${result.occurredAt})`,
      );
      ctx.out.line(
        result.folded ? JSON.stringify(result.state, null, 2) : '(no decider for this category: events only)',
      );
      if (o.events === true)
        ctx.out.result(result.events, { columns: EVENT_COLUMNS, rows: result.events.map(eventRow) });
    });

  commandGroup(program, 'task', 'one task')
    .command('inspect')
    .description(
      'the timeline of a task: routing, inbox, steps with what they consumed and their prompts, ledger, jobs and money, cards, continuations, leases',
    )
    .argument('<taskId>')
    .option('--prompts', "load each step's archived prompt, by layer (canonical JSON in --json)")
    .addHelpText(
      'after',
      '\nExamples:\n  lomo task inspect <taskId>\n  lomo task inspect <taskId> --prompts --json > task.json',
    )
    .action(async (taskId: string, o: { prompts?: boolean }) => {
      const caller = await ctx.caller();
      const { events, blobs } = await ctx.openStores();
      const inspection = await inspectTask({ events, blobs }, caller, taskId, { prompts: o.prompts === true });
      logOperatorRead(ctx.audit, caller, {
        path: 'cli task inspect',
        workspaceId: inspection.workspaceId,
        streamId: `task-${taskId}`,
      });
      if (ctx.out.json) return ctx.out.result(inspection);
      ctx.out.line(
        `task ${inspection.taskId} (${inspection.workspaceId}) ${inspection.status}: ${shown(inspection.goal)}`,
      );
      if (inspection.routing !== null)
        ctx.out.line(
          `routed: ${inspection.routing.outcome} by ${inspection.routing.method} from message ${inspection.routing.messageId}`,
        );
      ctx.out.line(`steps (${inspection.steps.length}):`);
      for (const step of inspection.steps) ctx.out.line(stepLine(step));
      ctx.out.line(
        `jobs: ${inspection.generationJobs.map((j) => `${j.jobId} ${j.status} charged ${j.chargedMinor} ${j.currency ?? ''}`).join('; ') || 'none'}`,
      );
      ctx.out.line(
        `continuations: ${inspection.continuations.map((c) => `${c.decision} (${c.reason})`).join('; ') || 'none'}`,
      );
      ctx.out.result(inspection.timeline, timelineTable(inspection.timeline));
    });

  commandGroup(program, 'turn', 'one turn')
    .command('inspect')
    .description("a turn's steps, ledger, waits, leases and generations, and its timeline")
    .argument('<turnId>')
    .option('--prompts', "load each step's archived prompt, by layer")
    .addHelpText('after', '\nExample:\n  lomo turn inspect <turnId> --prompts')
    .action(async (turnId: string, o: { prompts?: boolean }) => {
      const caller = await ctx.caller();
      const { events, blobs } = await ctx.openStores();
      const turn = await inspectTurn({ events, blobs }, caller, turnId, { prompts: o.prompts === true });
      logOperatorRead(ctx.audit, caller, {
        path: 'cli turn inspect',
        workspaceId: turn.workspaceId,
        streamId: `turn-${turnId}`,
      });
      if (ctx.out.json) return ctx.out.result(turn);
      ctx.out.line(`turn ${turn.turnId} of task ${turn.taskId}: ${turn.status} (${turn.reason ?? 'no reason'})`);
      ctx.out.line(
        `leases: ${turn.leases.map((l) => `${l.workerId} gen ${l.generation}${l.takeover ? ' (takeover)' : ''}`).join(', ') || 'none'}; fenced generations: ${turn.fencedGenerations.join(', ') || 'none'}`,
      );
      for (const step of turn.steps) ctx.out.line(stepLine(step));
      ctx.out.result(turn.timeline, timelineTable(turn.timeline));
    });
}
