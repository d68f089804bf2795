import { Command, Option } from 'commander';
import { ApiTokens, authSettings, openApiTokenStore, tokenKinds, type TokenKind } from '@lomo/auth';
import type { CliContext } from '../cli-context';
import type { CliOutput } from '../cli-output';

/** The token actions on an ApiTokens: what `lomo tokens ...` runs, testable without a process. */
export function tokenActions(tokens: ApiTokens, out: CliOutput, err: (line: string) => void) {
  return {
    async create(input: { workspace: string; user: string; name?: string; kind?: TokenKind }): Promise<number> {
      // An unknown kind is refused by ApiTokens' validation (VALIDATION_FAILED), nothing stored.
      const issued = await tokens.issue({
        workspaceId: input.workspace,
        userId: input.user,
        ...(input.name !== undefined ? { name: input.name } : {}),
        ...(input.kind !== undefined ? { kind: input.kind } : {}),
      });
      out.result({ ...issued.record, token: issued.secret });
      err('Keep the token now: only its hash is stored, it cannot be shown again.');
      return 0;
    },
    async list(input: { workspace?: string; all?: boolean }): Promise<number> {
      const records = await tokens.list({
        ...(input.workspace !== undefined ? { workspaceId: input.workspace } : {}),
        includeRevoked: input.all === true,
      });
      if (out.json) for (const record of records) out.result(record);
      else
        out.result(records, {
          columns: ['id', 'name', 'kind', 'workspace', 'user', 'created', 'revoked'],
          rows: records.map((r) => [r.id, r.name, r.kind, r.workspaceId, r.userId, r.createdAt, r.revokedAt]),
        });
      return 0;
    },
    async revoke(id: string): Promise<number> {
      const outcome = await tokens.revoke(id);
      out.result({ id, outcome });
      return outcome === 'not_found' ? 1 : 0;
    },
  };
}

/**
 * `lomo tokens create|list|revoke`: the bootstrap of every other command (they need a token), so
 * it asks for none: whoever runs it can open the token store (LOMO_DATA_DIR's auth.sqlite, or
 * MONGODB_URL), as the API's deployment can.
 */
export function registerTokensCommand(program: Command, ctx: CliContext): void {
  const tokens = program.command('tokens').description('issue, list and revoke API tokens (no token needed)');
  const run = async (action: (actions: ReturnType<typeof tokenActions>) => Promise<number>) => {
    // No cache: the CLI makes one call and must see the store as it is.
    const store = await openApiTokenStore(authSettings(ctx.config), ctx.logger, { cache: false });
    try {
      process.exitCode = await action(
        tokenActions(new ApiTokens(store), ctx.out, (l) => process.stderr.write(`${l}\n`)),
      );
    } finally {
      await store.close();
    }
  };
  tokens
    .command('create')
    .description('issue a token; its secret is printed once')
    .requiredOption('--workspace <workspace>', 'the workspace it acts in')
    .requiredOption('--user <user>', 'the user it acts for')
    .option('--name <name>', 'a name to recognise it by')
    .addOption(new Option('--kind <kind>', 'what it may see and do').choices([...tokenKinds]).default('person'))
    .addHelpText('after', '\nExample:\n  lomo tokens create --workspace acme --user ops --kind operator --name support')
    .action((o: { workspace: string; user: string; name?: string; kind: TokenKind }) => run((a) => a.create(o)));
  tokens
    .command('list')
    .description('list tokens (never their secrets)')
    .option('--workspace <workspace>', 'only this workspace')
    .option('--all', 'include revoked tokens')
    .action((o: { workspace?: string; all?: boolean }) => run((a) => a.list(o)));
  tokens
    .command('revoke')
    .description('revoke a token by id (exit 1 when there is no such token)')
    .argument('<tokenId>')
    .action((id: string) => run((a) => a.revoke(id)));
}
