import { randomBytes } from 'node:crypto';
import { existsSync } from 'node:fs';
import type { Command } from 'commander';
import { logOperatorRead } from '@lomo/auth';
import {
  assertOperator,
  ConfirmationRequiredError,
  listDeadLetters,
  redriveDeadLetters,
  type DeadLetterRow,
  type DeadLetterSource,
  type DeadLetterSources,
} from '@lomo/operator';
import type { DocumentStore } from '@lomo/read-models';
import { createNotifierDocuments, DnsHostResolver, notifierSettings, SecretBox, WebhookService } from '@lomo/webhooks';
import type { CliContext } from '../cli-context';

interface Opened {
  sources: DeadLetterSources;
  close(): Promise<void>;
}

/**
 * The bus, the event store and the notifier's webhook service, on the stores the apps use. The
 * notifier keeps its own documents (SQLite file or MongoDB): an SQLite file that does not exist
 * holds no dead letters and is not created. The service here only lists dead letters and asks
 * for redeliveries, never sealing or opening a signing secret, so it gets a throwaway key instead
 * of LOMO_SECRETS_KEY (which production keeps to the processes that sign).
 */
async function openSources(ctx: CliContext): Promise<Opened> {
  const stores = await ctx.openStores();
  const bus = await stores.bus();
  const settings = notifierSettings(ctx.config);
  let documents: DocumentStore | undefined;
  if (settings.mongodbUrl !== undefined || existsSync(settings.sqlitePath))
    documents = await createNotifierDocuments(settings, ctx.logger);
  const webhooks =
    documents === undefined
      ? undefined
      : new WebhookService({
          documents,
          events: stores.events,
          clock: ctx.clock,
          ids: ctx.ids,
          settings,
          logger: ctx.logger,
          secretBox: new SecretBox(randomBytes(SecretBox.KEY_BYTES)),
          resolver: new DnsHostResolver(),
        });
  return {
    sources: { events: stores.events, bus, ...(webhooks !== undefined ? { webhooks } : {}) },
    close: async () => {
      await documents?.close();
    },
  };
}

const table = (rows: readonly DeadLetterRow[]) => ({
  columns: ['id', 'source', 'group/webhook', 'workspace', 'event', 'stream', 'error', 'attempts', 'at', 'status'],
  rows: rows.map((r) => [
    r.id,
    r.source,
    r.group ?? r.webhookId,
    r.workspaceId,
    r.eventType,
    r.streamId,
    `${r.error.code}: ${r.error.message}`,
    r.attempts,
    r.deadLetteredAt,
    r.status,
  ]),
});

interface Selection {
  source?: DeadLetterSource;
  group?: string;
}

const selection = (o: Selection) => ({
  ...(o.source !== undefined ? { source: o.source } : {}),
  ...(o.group !== undefined ? { group: o.group } : {}),
});

/** `lomo dlq list` and `lomo dlq redrive`: bus (and memory) and webhook dead letters, in one list. */
export function registerDlqCommand(program: Command, ctx: CliContext): void {
  const dlq = program
    .command('dlq')
    .description('dead letters: bus consumer groups (memory extraction among them) and webhook deliveries');

  dlq
    .command('list')
    .description('every dead letter, oldest first, with a stable id to redrive it by')
    .option('--source <source>', 'bus, memory or webhook')
    .option('--group <groupId>', 'one consumer group')
    .option('--workspace <workspaceId>', 'one workspace')
    .option('--state <state>', 'open, redriven or all (default)')
    .addHelpText('after', '\nExamples:\n  lomo dlq list\n  lomo dlq list --source memory --state open --json')
    .action(async (o: Selection & { workspace?: string; state?: 'open' | 'redriven' | 'all' }) => {
      const caller = await ctx.caller();
      const opened = await openSources(ctx);
      try {
        const rows = await listDeadLetters(opened.sources, caller, {
          ...selection(o),
          ...(o.workspace !== undefined ? { workspaceId: o.workspace } : {}),
          ...(o.state !== undefined ? { state: o.state } : {}),
        });
        logOperatorRead(ctx.audit, caller, { path: 'cli dlq list', workspaceId: o.workspace ?? '*' });
        if (ctx.out.json) for (const row of rows) ctx.out.result(row);
        else ctx.out.result(rows, table(rows));
      } finally {
        await opened.close();
      }
    });

  dlq
    .command('redrive')
    .description(
      'send dead letters again: a bus letter back to its topic for its own group only, a webhook letter to its notifier; recorded as an operator action',
    )
    .option('--id <id...>', 'these dead letters (ids from `lomo dlq list`)')
    .option('--source <source>', 'every open letter of bus, memory or webhook')
    .option('--group <groupId>', 'every open letter of one consumer group')
    .option('--confirm', 'this is a write: without it nothing is sent')
    .addHelpText(
      'after',
      '\nExamples:\n  lomo dlq redrive --source memory --confirm\n  lomo dlq redrive --id bus:router:lomo.events.main:3:118 webhook:<id> --confirm',
    )
    .action(async (o: Selection & { id?: string[]; confirm?: boolean }) => {
      const caller = await ctx.caller();
      // Refused before any store opens (the library checks again, with the letters' count).
      assertOperator(caller, 'redriving dead letters');
      if (o.confirm !== true) throw new ConfirmationRequiredError('redriving dead letters');
      const opened = await openSources(ctx);
      try {
        const result = await redriveDeadLetters(
          opened.sources,
          caller,
          { ...selection(o), ...(o.id !== undefined ? { ids: o.id } : {}), confirm: o.confirm === true },
          { clock: ctx.clock, ids: ctx.ids },
        );
        if (ctx.out.json) return ctx.out.result(result);
        ctx.out.line(`redriven: ${result.redriven.length}, failed: ${result.failed.length}`);
        for (const failed of result.failed) ctx.out.line(`  ${failed.id}: ${failed.error}`);
        ctx.out.line('a redriven bus letter that fails again comes back as a new dead letter (`lomo dlq list`)');
        if (result.failed.length > 0) process.exitCode = 1;
      } finally {
        await opened.close();
      }
    });
}
