import { Command, Option } from 'commander';
import { registerDlqCommand } from './commands/dlq-command';
import { registerInspectCommands } from './commands/inspect-commands';
import { registerProjectionsCommand } from './commands/projections-command';
import { registerRelayCommand } from './commands/relay-command';
import { registerTokensCommand } from './commands/tokens-command';
import { registerTransferCommand } from './commands/transfer-command';
import type { Writers } from './cli-output';
import { ProgramContext } from './program-context';

const EXIT_CODES = `
Exit codes:
  0  done
  1  failed: the work could not be done (a store unreachable, an unknown token id to revoke, a bug)
  2  bad input: malformed flags, an unknown stream or task, a bad --at, a workspace your token may not
     read, a write without --confirm, a corrupt or conflicting import; nothing was changed

Stores: the same variables as the apps (LOMO_DATA_DIR for the embedded files; LOMO_EVENTSTORE,
MONGODB_URL, LOMO_BUS, KAFKA_BROKERS, LOMO_BLOB_STORE for the distributed ones).
A token (--token or LOMO_TOKEN) says who reads: a person's token reads its own workspace, an
operator's reads any (each read logged) and is needed for every write.`;

const EXAMPLES = `
Examples:
  lomo tokens create --workspace acme --user ops --kind operator
  export LOMO_TOKEN=lomo_...
  lomo events tail --workspace acme --follow
  lomo task inspect <taskId> --prompts --json
  lomo stream show task-<taskId> --at 7`;

/** The `lomo` command line, its global options and every command. */
export function buildProgram(env: NodeJS.ProcessEnv, writers: Writers, signal: AbortSignal) {
  const program = new Command('lomo');
  program
    .description(
      'Operator tools for the Lomo backend: read the log, inspect tasks and turns, repair read models and deliveries',
    )
    .addOption(new Option('--json', 'one JSON line per result on stdout (for scripts)'))
    .addOption(new Option('--token <token>', 'API token to act as (default: LOMO_TOKEN)'))
    .addOption(new Option('--quiet', 'no progress bars'))
    .showHelpAfterError('(run with --help for usage)')
    .exitOverride()
    .configureOutput({ writeOut: (s) => writers.out(s.trimEnd()), writeErr: (s) => writers.err(s.trimEnd()) })
    .addHelpText('after', `${EXAMPLES}\n${EXIT_CODES}`);
  const context = new ProgramContext(program, env, writers, signal);
  registerTokensCommand(program, context);
  registerInspectCommands(program, context);
  registerProjectionsCommand(program, context);
  registerRelayCommand(program, context);
  registerDlqCommand(program, context);
  registerTransferCommand(program, context);
  return { program, context };
}
