import { tokenKinds, type ApiTokens, type TokenKind } from '@lomo/auth';
import { parseArgs, UsageError } from './parse-args';

export const TOKENS_USAGE = [
  `lomo tokens create --workspace <workspace> --user <user> [--name <name>] [--kind ${tokenKinds.join('|')}]`,
  'lomo tokens list [--workspace <workspace>] [--all]',
  'lomo tokens revoke <token id>',
].join('\n');

export interface Output {
  out(line: string): void;
  err(line: string): void;
}

const option = (value: string | true | undefined): string | undefined =>
  typeof value === 'string' ? value : undefined;

/**
 * `lomo tokens ...`: one JSON object per line on stdout, so scripts can read it. Returns the
 * exit code: 0 done, 1 refused (unknown token), 2 usage.
 */
export async function runTokensCommand(argv: readonly string[], tokens: ApiTokens, io: Output): Promise<number> {
  const [action, ...rest] = argv;
  switch (action) {
    case 'create': {
      const { options } = parseArgs(rest, ['workspace', 'user', 'name', 'kind']);
      const workspaceId = option(options.workspace);
      const userId = option(options.user);
      if (workspaceId === undefined || userId === undefined)
        throw new UsageError('--workspace and --user are required');
      const name = option(options.name);
      const kind = option(options.kind);
      // An unknown kind is refused by ApiTokens' validation (VALIDATION_FAILED), nothing stored.
      const issued = await tokens.issue({
        workspaceId,
        userId,
        ...(name !== undefined ? { name } : {}),
        ...(kind !== undefined ? { kind: kind as TokenKind } : {}),
      });
      io.out(JSON.stringify({ ...issued.record, token: issued.secret }));
      io.err('Keep the token now: only its hash is stored, it cannot be shown again.');
      return 0;
    }
    case 'list': {
      const { options } = parseArgs(rest, ['workspace'], ['all']);
      const workspaceId = option(options.workspace);
      const records = await tokens.list({
        ...(workspaceId !== undefined ? { workspaceId } : {}),
        includeRevoked: options.all === true,
      });
      for (const record of records) io.out(JSON.stringify(record));
      return 0;
    }
    case 'revoke': {
      const { positional } = parseArgs(rest, []);
      if (positional.length !== 1) throw new UsageError('revoke takes one token id');
      const outcome = await tokens.revoke(positional[0]);
      io.out(JSON.stringify({ id: positional[0], outcome }));
      return outcome === 'not_found' ? 1 : 0;
    }
    default:
      throw new UsageError(action === undefined ? 'tokens needs an action' : `unknown action "${action}"`);
  }
}
