import type { Command } from 'commander';
import { projectorProjections } from '@lomo/application';
import { logOperatorRead } from '@lomo/auth';
import { assertOperator, ConfirmationRequiredError, projectionsStatus, rebuildProjections } from '@lomo/operator';
import type { CliContext } from '../cli-context';

const STATUS_COLUMNS = [
  'name',
  'version',
  'collection',
  'switchedAt',
  'rebuild',
  'applied',
  'head',
  'lag',
  'documents',
];

const names = (value: string, previous: string[] = []) => [...previous, value];

/**
 * `lomo projections status`, `lomo projections rebuild [--name P]... --confirm`. `retireAfterMs`:
 * the readers' grace before the replaced collections go (5 s; specs shorten it).
 */
export function registerProjectionsCommand(
  program: Command,
  ctx: CliContext,
  options: { retireAfterMs?: number } = {},
): void {
  const projections = program.command('projections').description('read models: where they stand, rebuild them');

  projections
    .command('status')
    .description(
      'each projection: version, the collection readers use, a rebuild lease, applied position, lag, documents',
    )
    .addHelpText('after', '\nExample:\n  lomo projections status --json')
    .action(async () => {
      const caller = await ctx.caller();
      assertOperator(caller, 'projections status');
      const { events, documents } = await ctx.openStores();
      logOperatorRead(ctx.audit, caller, { path: 'cli projections status', workspaceId: '*' });
      const rows = await projectionsStatus({ events, documents, projections: projectorProjections });
      if (ctx.out.json) {
        for (const row of rows) ctx.out.result(row);
        return;
      }
      ctx.out.result(rows, {
        columns: STATUS_COLUMNS,
        rows: rows.map((r) => [
          r.name,
          r.aliasVersion === null || r.aliasVersion === r.version
            ? r.version
            : `${r.version} (live: ${r.aliasVersion})`,
          r.aliasCollection,
          r.switchedAt,
          r.rebuildLease === null
            ? null
            : `${r.rebuildLease.collection} by ${r.rebuildLease.owner} until ${r.rebuildLease.leaseUntil}`,
          r.appliedPosition,
          r.headPosition,
          r.lagEvents,
          r.documents,
        ]),
      });
    });

  projections
    .command('rebuild')
    .description(
      'rebuild read models from the whole log into fresh collections, then switch readers to them; a running projector follows',
    )
    .option('--name <projection>', 'one projection (repeat for more; default: all)', names)
    .option('--confirm', 'do it (readers are switched to the rebuilt collections)')
    .addHelpText(
      'after',
      '\nExamples:\n  lomo projections rebuild --name tasks --confirm\n  lomo projections rebuild --confirm --json',
    )
    .action(async (o: { name?: string[]; confirm?: boolean }) => {
      const caller = await ctx.caller();
      // Refused before any store opens (the library checks again).
      assertOperator(caller, 'rebuilding projections');
      if (o.confirm !== true) throw new ConfirmationRequiredError('rebuilding projections');
      const stores = await ctx.openStores();
      const sources = { events: stores.events, documents: stores.documents, projections: projectorProjections };
      let bar: ReturnType<CliContext['progress']> | undefined;
      const summary = await rebuildProjections(sources, caller, {
        names: o.name,
        confirm: o.confirm === true,
        clock: ctx.clock,
        ids: ctx.ids,
        logger: ctx.logger,
        signal: ctx.signal,
        retireAfterMs: options.retireAfterMs,
        onProgress: (p) => {
          // Positions are counts on SQLite: the bar runs to the head; elsewhere it counts events.
          bar ??= ctx.progress('rebuild', p.total);
          bar.update(p.total !== undefined && p.position !== undefined ? p.position : p.events, {
            events: p.events,
          });
        },
        onSwitched: ({ retired, retireAfterMs }) => {
          bar?.stop();
          bar = undefined;
          ctx.out.line(
            `switched; ${retired.length} replaced collections are dropped in ${retireAfterMs / 1000} s, once readers moved on`,
          );
        },
      }).finally(() => bar?.stop());
      if (ctx.out.json) return ctx.out.result(summary);
      ctx.out.line(
        `rebuilt ${summary.names.join(', ')}: ${summary.events} events (+${summary.caughtUp} caught up) in ${(summary.millis / 1000).toFixed(1)} s, ${summary.ratePerSecond} events/s`,
      );
      for (const refused of summary.refused) ctx.out.line(`not switched: ${refused.name}: ${refused.reason}`);
      ctx.out.result(summary.collections, {
        columns: ['name', 'from', 'collection'],
        rows: summary.collections.map((c) => [c.name, c.from, c.collection]),
      });
    });
}
