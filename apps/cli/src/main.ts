import 'reflect-metadata';
import { ConfigError, isLomoError } from '@lomo/contracts';
import { loadConfig } from '@lomo/config';
import pino from 'pino';
import { ApiTokens, authSettings, openApiTokenStore } from '@lomo/auth';
import { createLogger } from '@lomo/observability';
import { UsageError } from './parse-args';
import { runTokensCommand, TOKENS_USAGE } from './tokens-command';

const USAGE = `Usage:\n${TOKENS_USAGE}`;

/**
 * `lomo <command> ...`: operator tools on the stores the apps use (LOMO_DATA_DIR's read-model
 * file embedded, MONGODB_URL distributed: the same variables as the API).
 */
async function main(argv: readonly string[]): Promise<number> {
  const [command, ...rest] = argv;
  if (command === undefined || command === '--help' || command === 'help') {
    console.log(USAGE);
    return command === undefined ? 2 : 0;
  }
  if (command !== 'tokens') throw new UsageError(`unknown command "${command}"`);
  const config = loadConfig();
  // Logs go to stderr: stdout carries one JSON result per line for scripts.
  const logger = createLogger({
    level: 'warn',
    name: 'lomo-cli',
    destination: pino.destination({ dest: 2, sync: true }),
  });
  // No cache: the CLI makes one call and must see the store as it is.
  const store = await openApiTokenStore(authSettings(config), logger, { cache: false });
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
