import * as path from 'node:path';
import type { Command } from 'commander';
import { textBlobsFrom } from '@lomo/application';
import { logOperatorRead } from '@lomo/auth';
import { SqliteBlobStore, type BlobStore } from '@lomo/blobs';
import {
  assertOperator,
  ConfirmationRequiredError,
  exportWorkspace,
  importWorkspace,
  type TransferProgress,
  type TransferProgressListener,
  type TransferSources,
} from '@lomo/operator';
import type { CliContext } from '../cli-context';

const PHASE_LABELS: Record<TransferProgress['phase'], string> = {
  events: 'events',
  blobs: 'blobs',
  verify: 'verify',
  write: 'write',
};

/** One progress bar per phase, the previous one stopped when the next phase starts. */
function phaseProgress(ctx: CliContext): { listener: TransferProgressListener; stop(): void } {
  let current: { phase: string; bar: ReturnType<CliContext['progress']> } | undefined;
  return {
    listener: (p) => {
      if (current?.phase !== p.phase) {
        current?.bar.stop();
        current = { phase: p.phase, bar: ctx.progress(PHASE_LABELS[p.phase], p.total) };
      }
      current.bar.update(p.done);
    },
    stop: () => {
      current?.bar.stop();
      current = undefined;
    },
  };
}

/**
 * The stores an export reads and an import writes, with the document-text store the apps use
 * (textBlobsFrom: a table of the SQLite event-store file, or the platform's BlobStore).
 */
async function transferSources(ctx: CliContext): Promise<{ sources: TransferSources; close(): void }> {
  const stores = await ctx.openStores();
  const documentTexts: BlobStore = textBlobsFrom(ctx.config, stores.blobs);
  return {
    sources: { events: stores.events, blobs: stores.blobs, documentTexts },
    close: () => {
      if (documentTexts instanceof SqliteBlobStore) documentTexts.close();
    },
  };
}

/** `lomo export` and `lomo import`: a workspace's streams and blobs as files, and back. */
export function registerTransferCommand(program: Command, ctx: CliContext): void {
  program
    .command('export')
    .description(
      "a workspace's events (NDJSON, global order) and the blobs they reference, with a manifest of sha-256s; forgotten content as tombstones",
    )
    .requiredOption('--workspace <workspaceId>', 'the workspace (another than your token’s needs an operator token)')
    .requiredOption('--out <dir>', 'an empty or new directory')
    .addHelpText(
      'after',
      '\nA person’s token exports what that person may read (not the other people’s private streams).\n\nExamples:\n  lomo export --workspace acme --out ./acme-export\n  lomo export --workspace acme --out ./acme-export --json',
    )
    .action(async (o: { workspace: string; out: string }) => {
      const caller = await ctx.caller();
      const { sources, close } = await transferSources(ctx);
      logOperatorRead(ctx.audit, caller, { path: 'cli export', workspaceId: o.workspace });
      const progress = phaseProgress(ctx);
      try {
        const summary = await exportWorkspace(sources, caller, o.workspace, path.resolve(o.out), {
          onProgress: progress.listener,
          clock: ctx.clock,
        });
        progress.stop();
        ctx.out.result(summary, {
          columns: ['workspace', 'scope', 'streams', 'events', 'blobs', 'tombstones', 'dir'],
          rows: [
            [
              summary.workspaceId,
              summary.scope,
              summary.streams,
              summary.events,
              summary.blobs,
              summary.tombstones,
              summary.dir,
            ],
          ],
        });
      } finally {
        progress.stop();
        close();
      }
    });

  program
    .command('import')
    .description(
      'an export into this deployment: everything verified first (hashes, event contracts, revisions), refused if any of its streams exists; operators only',
    )
    .argument('<dir>', 'the directory `lomo export` wrote')
    .option('--confirm', 'write it (without it nothing is read or written)')
    .addHelpText(
      'after',
      '\nA corrupt or conflicting export is refused with the reason (exit code 2) and nothing is written.\nThe import is recorded as OperatorActionRecorded on your operator-{workspace} stream.\n\nExamples:\n  lomo import ./acme-export --confirm',
    )
    .action(async (dir: string, o: { confirm?: boolean }) => {
      const caller = await ctx.caller();
      // importWorkspace checks both too; checked here as well so a refused import opens no store
      // (opening a SQLite event store that is not there yet would create its file).
      if (o.confirm !== true) throw new ConfirmationRequiredError('importing a workspace');
      assertOperator(caller, 'importing a workspace');
      const { sources, close } = await transferSources(ctx);
      const progress = phaseProgress(ctx);
      try {
        const summary = await importWorkspace(sources, caller, path.resolve(dir), {
          confirm: o.confirm === true,
          onProgress: progress.listener,
          clock: ctx.clock,
          ids: ctx.ids,
          via: { tool: 'cli', command: 'import' },
        });
        progress.stop();
        ctx.out.result(summary, {
          columns: ['workspace', 'streams', 'events', 'blobs', 'tombstones', 'action'],
          rows: [
            [summary.workspaceId, summary.streams, summary.events, summary.blobs, summary.tombstones, summary.actionId],
          ],
        });
      } finally {
        progress.stop();
        close();
      }
    });
}
