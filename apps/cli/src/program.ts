import { Command, Option } from 'commander';
import type { CliContext } from './cli-context';
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
  lomo stream show task-<taskId> --at 7
  lomo turn replay <turnId> --json
  lomo task fork <taskId> --at <turnId>:2 --confirm`;

type Register = (program: Command, ctx: CliContext) => void;

/**
 * Each command's module, loaded only when its command runs (or for --help and an unknown
 * command): `lomo tokens` must not load the stores' and the runtime's libraries to start.
 */
const COMMANDS: ReadonlyArray<{ names: readonly string[]; load: () => Promise<Register> }> = [
  { names: ['tokens'], load: async () => (await import('./commands/tokens-command')).registerTokensCommand },
  {
    names: ['events', 'stream', 'task', 'turn'],
    load: async () => (await import('./commands/inspect-commands')).registerInspectCommands,
  },
  { names: ['turn'], load: async () => (await import('./commands/replay-command')).registerReplayCommand },
  { names: ['task'], load: async () => (await import('./commands/fork-command')).registerForkCommand },
  {
    names: ['projections'],
    load: async () => (await import('./commands/projections-command')).registerProjectionsCommand,
  },
  { names: ['metrics'], load: async () => (await import('./commands/metrics-command')).registerMetricsCommand },
  { names: ['relay'], load: async () => (await import('./commands/relay-command')).registerRelayCommand },
  { names: ['dlq'], load: async () => (await import('./commands/dlq-command')).registerDlqCommand },
  {
    names: ['export', 'import'],
    load: async () => (await import('./commands/transfer-command')).registerTransferCommand,
  },
];

/** The first word of the command line that is not a global option (nor its value). */
export function commandWordOf(argv: readonly string[]): string | undefined {
  for (let i = 0; i < argv.length; i += 1) {
    const word = argv[i];
    if (word === '--token') i += 1;
    else if (!word.startsWith('-')) return word;
  }
  return undefined;
}

/** The `lomo` command line, its global options and the commands `argv` needs (all for help). */
export async function buildProgram(
  argv: readonly string[],
  env: NodeJS.ProcessEnv,
  writers: Writers,
  signal: AbortSignal,
) {
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
  const word = commandWordOf(argv);
  // A group (`task`) may have subcommands in several modules: every module naming the word loads.
  const known = COMMANDS.filter((c) => word !== undefined && c.names.includes(word));
  for (const command of known.length === 0 ? COMMANDS : known) (await command.load())(program, context);
  return { program, context };
}
