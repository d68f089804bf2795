import type { Command } from 'commander';
import { logOperatorRead } from '@lomo/auth';
import { metricFigures, workspaceMetrics, type Finding } from '@lomo/operator';
import type { CliContext } from '../cli-context';

/** `lomo metrics`: the collaboration metrics of a workspace (libs/operator/README.md, "Collaboration metrics"). */
export function registerMetricsCommand(program: Command, ctx: CliContext): void {
  program
    .command('metrics')
    .description(
      "a workspace's collaboration metrics, computed from its log alone: continue prompts, unnecessary confirmations, " +
        'duplicate generations and artefacts, stale edits, forgotten text in later prompts, language switches, cost over ' +
        'its authority, model calls per delivered artefact, time from approval to progress; each with its findings',
    )
    .requiredOption('--workspace <workspaceId>', 'the workspace')
    .option('--forgotten <text...>', 'texts the person asked to forget: counted when a later prompt quotes one')
    .addHelpText(
      'after',
      '\nExamples:\n  lomo metrics --workspace acme\n  lomo metrics --workspace acme --forgotten "our main colour is blue" --json',
    )
    .action(async (o: { workspace: string; forgotten?: string[] }) => {
      const caller = await ctx.caller();
      const { events, blobs } = await ctx.openStores();
      const result = await workspaceMetrics({ events, blobs }, caller, o.workspace, {
        ...(o.forgotten !== undefined ? { forgottenTexts: o.forgotten } : {}),
      });
      logOperatorRead(ctx.audit, caller, { path: 'cli metrics', workspaceId: o.workspace });
      const figures = metricFigures(result.metrics);
      const findings = Object.entries(result.metrics).flatMap(([metric, m]: [string, object]) =>
        'findings' in m ? (m.findings as Finding[]).map((f) => ({ metric, ...f })) : [],
      );
      const stalled = result.metrics.pace.stalledApprovals.map((f) => ({ metric: 'stalledApprovals', ...f }));
      if (ctx.out.json)
        return ctx.out.result({
          workspaceId: o.workspace,
          events: result.events,
          figures,
          findings: [...findings, ...stalled],
        });
      ctx.out.line(`workspace ${o.workspace}: ${result.events} events`);
      ctx.out.result(Object.entries(figures), {
        columns: ['figure', 'value'],
        rows: Object.entries(figures).map(([k, v]) => [
          k,
          typeof v === 'object' && v !== null ? JSON.stringify(v) : String(v),
        ]),
      });
      const all = [...findings, ...stalled];
      if (all.length > 0)
        ctx.out.result(all, {
          columns: ['metric', 'task', 'position', 'type', 'detail'],
          rows: all.map((f) => [f.metric, f.taskId ?? '-', f.position, f.type, f.detail]),
        });
    });
}
