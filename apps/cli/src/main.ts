import 'reflect-metadata';
import { ConfigError, isLomoError } from '@lomo/contracts';
import { loadConfig } from '@lomo/config';
import { ApiTokens } from '@lomo/auth';
import { SqliteApiTokenStore } from '@lomo/auth';
import { UsageError } from './parse-args';
import { runTokensCommand, TOKENS_USAGE } from './tokens-command';

const USAGE = `Usage:\n${TOKENS_USAGE}`;

/** `lomo <command> ...`: operator tools on the data directory of LOMO_DATA_DIR. */
async function main(argv: readonly string[]): Promise<number> {
  const [command, ...rest] = argv;
  if (command === undefined || command === '--help' || command === 'help') {
    console.log(USAGE);
    return command === undefined ? 2 : 0;
  }
  if (command !== 'tokens') throw new UsageError(`unknown command "${command}"`);
  const config = loadConfig();
  const store = new SqliteApiTokenStore(config.LOMO_AUTH_SQLITE_PATH);
  try {
    return await runTokensCommand(rest, new ApiTokens(store), {
      out: (line) => console.log(line),
      err: (line) => console.error(line),
    });
  } finally {
    await store.close();
  }
}

main(process.argv.slice(2)).then(
  (code) => process.exit(code),
  (error: unknown) => {
    if (error instanceof UsageError) {
      console.error(`${error.message}\n${USAGE}`);
      process.exit(2);
    }
    if (error instanceof ConfigError) {
      console.error(error.message);
      process.exit(2);
    }
    const code = isLomoError(error) ? error.code : 'INTERNAL';
    console.error(JSON.stringify({ error: code, message: error instanceof Error ? error.message : String(error) }));
    process.exit(1);
  },
);
