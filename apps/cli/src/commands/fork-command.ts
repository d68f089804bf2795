import type { Command } from 'commander';
import {
  armForkTools,
  assertOperator,
  ConfirmationRequiredError,
  forkTask,
  parseForkPoint,
  parseToolList,
  replaySetupFromConfig,
} from '@lomo/operator';
import type { CliContext } from '../cli-context';
import { commandGroup } from '../command-group';

/**
 * `lomo task fork` and `lomo task arm` (issue 20): a fork is a new task copied from another as it
 * stood at a point, whose tools stay stubbed until armed; both are operator writes, refused before
 * any store opens without an operator token or --confirm, and recorded as operator actions.
 */
export function registerForkCommand(program: Command, ctx: CliContext): void {
  const task = commandGroup(program, 'task', 'one task');

  task
    .command('fork')
    .description(
      "a new task in the same workspace, copied from this one as it stood at a revision of its stream or a committed step (lineage in ForkedFrom); the original's streams are only read; the fork's tools do nothing until `lomo task arm`",
    )
    .argument('<taskId>')
    .requiredOption('--at <point>', 'a task stream revision (12) or a committed step (<turnId>:<step>)')
    .option('--confirm', 'this is a write: without it nothing is written')
    .addHelpText(
      'after',
      '\nExamples:\n  lomo task fork <taskId> --at 12 --confirm\n  lomo task fork <taskId> --at <turnId>:2 --confirm --json\n  lomo task arm <forkId> --tools notes.create,notes.list --confirm',
    )
    .action(async (taskId: string, o: { at: string; confirm?: boolean }) => {
      const at = parseForkPoint(o.at);
      const caller = await ctx.caller();
      // Refused before any store opens (the library checks again, with the position).
      assertOperator(caller, 'forking a task');
      if (o.confirm !== true) throw new ConfirmationRequiredError(`forking task ${taskId}`);
      const { events } = await ctx.openStores();
      const result = await forkTask(events, caller, taskId, { at, confirm: true }, { clock: ctx.clock, ids: ctx.ids });
      if (ctx.out.json) return ctx.out.result(result);
      ctx.out.line(
        `fork ${result.forkTaskId} of task ${result.sourceTaskId} at revision ${result.sourceRevision} (position ${result.sourcePosition}${result.atStep === undefined ? '' : `, step ${result.atStep.step} of turn ${result.atStep.turnId}`})`,
      );
      ctx.out.line(`  streams written: ${result.streams.join(', ')} (${result.copied} events copied)`);
      if (result.cancelledTurnId !== undefined)
        ctx.out.line(`  the turn running at that point is cancelled in the fork (${result.cancelledTurnId})`);
      ctx.out.line(`  its tools are stubbed: lomo task arm ${result.forkTaskId} --tools <names>|all --confirm`);
    });

  task
    .command('arm')
    .description("let a fork's calls to these tools run (they are stubbed until then); recorded as an operator action")
    .argument('<forkId>')
    .requiredOption('--tools <names>', 'tool names separated by commas (notes.create,notes.list), or all')
    .option('--confirm', 'this is a write: without it nothing is written')
    .addHelpText(
      'after',
      '\nExamples:\n  lomo task arm <forkId> --tools notes.create,notes.list --confirm\n  lomo task arm <forkId> --tools all --confirm',
    )
    .action(async (forkId: string, o: { tools: string; confirm?: boolean }) => {
      const tools = parseToolList(o.tools);
      const caller = await ctx.caller();
      assertOperator(caller, "arming a fork's tools");
      if (o.confirm !== true) throw new ConfirmationRequiredError(`arming tools of fork ${forkId}`);
      const knownTools = replaySetupFromConfig(ctx.config, ctx.logger)
        .tools.list()
        .map((t) => t.name);
      const { events } = await ctx.openStores();
      const result = await armForkTools(
        events,
        caller,
        forkId,
        { tools, knownTools, confirm: true },
        { clock: ctx.clock, ids: ctx.ids },
      );
      if (ctx.out.json) return ctx.out.result(result);
      const shown = (armed: 'all' | string[]) => (armed === 'all' ? 'all' : armed.join(', ') || 'nothing new');
      ctx.out.line(`fork ${result.taskId}: armed ${shown(result.armed)}; armed now: ${shown(result.nowArmed)}`);
    });
}
