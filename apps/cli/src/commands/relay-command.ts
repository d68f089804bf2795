import { existsSync } from 'node:fs';
import Database from 'better-sqlite3';
import type { Command } from 'commander';
import { logOperatorRead } from '@lomo/auth';
import { SqliteRelayLeaseStore, type RelayLeaseStore } from '@lomo/bus';
import { relayStatus, type RelayStatus } from '@lomo/operator';
import { DocumentRelayLeaseStore } from '@lomo/platform';
import { wholeNumber } from '../cli-options';
import type { CliContext, OperatorStores } from '../cli-context';

/** Whether the SQLite file holds the relays' lease table (read-only: looking changes nothing). */
function hasLeaseTable(file: string): boolean {
  if (!existsSync(file)) return false;
  const db = new Database(file, { readonly: true, fileMustExist: true });
  try {
    return db.prepare("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'relay_leases'").get() !== undefined;
  } finally {
    db.close();
  }
}

/**
 * The lease the relays elect their active instance with, where createRelay keeps it
 * (libs/platform/src/create-relay.ts), whatever this process's own LOMO_RELAY says (the CLI is
 * no relay: the relay apps run with it on). None when no relay ever took one: an SQLite file
 * without the lease table is not opened for writing (that would create the table).
 */
function openLease(ctx: CliContext, stores: OperatorStores): { lease?: RelayLeaseStore; close(): void } {
  const { config } = ctx;
  if (config.LOMO_BUS === 'kafka' && config.LOMO_EVENTSTORE !== 'sqlite')
    return { lease: new DocumentRelayLeaseStore(stores.documents), close: () => undefined };
  const file = config.LOMO_BUS === 'in-process' ? config.LOMO_BUS_PATH : config.LOMO_SQLITE_PATH;
  if (!hasLeaseTable(file)) return { close: () => undefined };
  const lease = SqliteRelayLeaseStore.open({ filename: file });
  return { lease, close: () => lease.close() };
}

const offsets = (status: RelayStatus['groups'][number]['topics'][number]) =>
  status.partitions.map((p) => `${p.partition}:${p.committed ?? '-'}/${p.end}`).join(' ');

/** `lomo relay status`: the relay's checkpoint and lease, and every consumer group's lag. */
export function registerRelayCommand(program: Command, ctx: CliContext): void {
  program
    .command('relay')
    .description('the relay from the event store to the bus')
    .command('status')
    .description(
      "the relay's checkpoint against the store's head, its lease holder and expiry, and each consumer group's committed offsets against the partition ends",
    )
    .option('--group <groupId...>', 'these consumer groups (default: the apps’ groups)')
    .option('--lag-limit <n>', 'count at most n events of relay lag', wholeNumber('--lag-limit'))
    .addHelpText('after', '\nExamples:\n  lomo relay status\n  lomo relay status --group memory router --json')
    .action(async (o: { group?: string[]; lagLimit?: number }) => {
      const caller = await ctx.caller();
      const stores = await ctx.openStores();
      const opened = openLease(ctx, stores);
      try {
        const status = await relayStatus(
          {
            events: stores.events,
            bus: await stores.bus(),
            clock: ctx.clock,
            ...(opened.lease ? { lease: opened.lease } : {}),
          },
          caller,
          {
            ...(o.group !== undefined ? { groups: o.group } : {}),
            ...(o.lagLimit !== undefined ? { lagLimit: o.lagLimit } : {}),
          },
        );
        logOperatorRead(ctx.audit, caller, { path: 'cli relay status', workspaceId: '*' });
        if (ctx.out.json) return ctx.out.result(status);
        ctx.out.line(`relay ${status.relayId} (topics ${status.topicPrefix}<category>)`);
        ctx.out.line(
          `checkpoint ${status.checkpoint ?? '-'}, head ${status.head ?? '-'}: ${status.lagCapped ? 'more than ' : ''}${status.lagEvents} event(s) behind`,
        );
        const lease = status.lease;
        ctx.out.line(
          lease === null
            ? 'lease: none (the relay runs without one, or never took it)'
            : `lease: ${lease.holder ?? 'released'}, epoch ${lease.epoch}, until ${lease.expiresAt} (${lease.live ? 'live' : 'expired'})`,
        );
        ctx.out.result(status.groups, {
          columns: ['group', 'topic', 'lag', 'partition:committed/end'],
          rows: status.groups.flatMap((g) =>
            g.topics.length === 0
              ? [[g.groupId, '-', 0, 'never committed']]
              : g.topics.map((t) => [g.groupId, t.topic, t.lag, offsets(t)]),
          ),
        });
      } finally {
        opened.close();
      }
    });
}
