import { readFileSync } from 'node:fs';
import type { Command } from 'commander';
import { logOperatorRead } from '@lomo/auth';
import {
  BadOperatorInputError,
  isPurged,
  parsePromptPatch,
  replayModelFromConfig,
  replaySetupFromConfig,
  replayTurn,
  REPLAY_MODELS,
  type CallDiff,
  type ReplayedStep,
} from '@lomo/operator';
import { wholeNumber } from '../cli-options';
import type { CliContext } from '../cli-context';
import { commandGroup } from '../command-group';

/** A file named by an option, read whole; one that cannot be read is bad input (nothing ran). */
function readOptionFile(option: string, path: string): string {
  try {
    return readFileSync(path, 'utf8');
  } catch (error) {
    throw new BadOperatorInputError(`${option} ${path}: ${error instanceof Error ? error.message : String(error)}`);
  }
}

const shown = (value: unknown): string =>
  value === null ? '-' : isPurged(value) ? `[purged: ${value.reason}]` : JSON.stringify(value);

const contextOf = (s: ReplayedStep) =>
  s.context === null
    ? '-'
    : s.context.status === 'context_drift'
      ? `context drift (${s.context.firstDifferingLayer})`
      : s.context.status;

const callsOf = (calls: readonly CallDiff[]) =>
  calls
    .map((c) => `${c.tool} ${c.status}${c.status === 'stubbed' ? ` ${JSON.stringify(c.replayed)}` : ''}`)
    .join('; ') || '-';

/** `lomo turn replay`: the side-effect-free replay of libs/operator/README.md, "Replay". */
export function registerReplayCommand(program: Command, ctx: CliContext): void {
  commandGroup(program, 'turn', 'one turn')
    .command('replay')
    .description(
      "replays a turn from its log, side-effect free: rebuilds each step's prompt and compares it with the stored one " +
        '(context drift), asks the model named (the recorded replies by default), reuses recorded tool results, stubs ' +
        'calls with none, and prints the decision diff per step; calls no tool, provider, bus or webhook and appends nothing',
    )
    .argument('<turnId>')
    .option('--step <n>', 'only this step (1-based)', wholeNumber('--step'))
    .option('--model <model>', `${REPLAY_MODELS.join(' | ')}: who decides (default: the recorded replies)`, 'recorded')
    .option(
      '--script <file>',
      '--model scripted\'s replies: {"steps":[{"reply":{...},"when":{...},"otherwise":{...}}]}',
    )
    .option(
      '--prompt-patch <file>',
      'rewrites of the rebuilt prompt: {"patches":[{"layer","find","replace"}|{"tool","description"}|{"brief"}]}',
    )
    .addHelpText(
      'after',
      '\nExamples:\n  lomo turn replay <turnId> --json\n  lomo turn replay <turnId> --step 3 --model offline\n' +
        '  lomo turn replay <turnId> --model scripted --script answers.json --prompt-patch stricter-rule.json\n' +
        '\n--model openai asks the endpoint OPENAI_BASE_URL / OPENAI_API_KEY / LOMO_MODEL configure.',
    )
    .action(async (turnId: string, o: { step?: number; model: string; script?: string; promptPatch?: string }) => {
      // Everything the command line names is checked before a store is opened.
      if (o.step !== undefined && o.step < 1) throw new BadOperatorInputError('--step counts from 1');
      const promptPatch =
        o.promptPatch === undefined ? undefined : parsePromptPatch(readOptionFile('--prompt-patch', o.promptPatch));
      const script = o.script === undefined ? undefined : readOptionFile('--script', o.script);
      if (script !== undefined && o.model !== 'scripted')
        throw new BadOperatorInputError('--script goes with --model scripted');
      const model = replayModelFromConfig(o.model, ctx.config, script);
      const caller = await ctx.caller();
      const { events, blobs } = await ctx.openStores();
      const report = await replayTurn(
        { events, blobs },
        caller,
        turnId,
        { model, ...(o.step !== undefined ? { step: o.step } : {}), ...(promptPatch ? { promptPatch } : {}) },
        replaySetupFromConfig(ctx.config, ctx.logger),
      );
      logOperatorRead(ctx.audit, caller, {
        path: 'cli turn replay',
        workspaceId: report.workspaceId,
        streamId: `turn-${turnId}`,
      });
      if (ctx.out.json) return ctx.out.result(report);
      ctx.out.line(
        `turn ${report.turnId} of task ${report.taskId} replayed with ${report.model}: ` +
          `${report.divergedAt === null ? 'no divergence' : `diverges at step ${report.divergedAt}`}, ` +
          `${report.driftAt === null ? 'no context drift' : `context drift from step ${report.driftAt}`}`,
      );
      ctx.out.result(report.steps, {
        columns: ['step', 'status', 'context', 'forgotten', 'reply recorded', 'reply replayed', 'calls', 'diverged'],
        rows: report.steps.map((s) => [
          s.step,
          s.status,
          contextOf(s),
          s.forgotten.flagged ? (s.forgotten.reason ?? 'yes') : '-',
          shown(s.reply.recorded),
          shown(s.reply.replayed),
          callsOf(s.toolCalls),
          s.diverged ? 'yes' : '',
        ]),
      });
    });
}
