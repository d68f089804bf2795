import 'reflect-metadata';
import { consoleWriters } from './cli-output';
import { exitFor } from './exit-codes';
import { buildProgram } from './program';

/**
 * `lomo <command> ...`: operator tools on the stores the apps use (apps/cli/README.md). Exit codes:
 * 0 done, 1 failed, 2 bad input (exit-codes.ts).
 */
// `lomo events tail | head`: the reader leaving is not an error of ours.
for (const stream of [process.stdout, process.stderr])
  stream.on('error', (error: NodeJS.ErrnoException) => {
    if (error.code === 'EPIPE') process.exit(0);
    throw error;
  });

async function main(argv: readonly string[]): Promise<number> {
  const stop = new AbortController();
  process.once('SIGINT', () => stop.abort());
  process.once('SIGTERM', () => stop.abort());
  const { program, context } = await buildProgram(argv, process.env, consoleWriters, stop.signal);
  try {
    if (argv.length === 0) {
      program.outputHelp();
      return 2;
    }
    await program.parseAsync([...argv], { from: 'user' });
    return typeof process.exitCode === 'number' ? process.exitCode : 0;
  } catch (error) {
    const decision = exitFor(error);
    if (decision.message !== '') {
      if (context.out.json)
        consoleWriters.err(JSON.stringify({ error: decision.errorCode, message: decision.message }));
      else consoleWriters.err(`lomo: ${decision.message} (${decision.errorCode})`);
    }
    return decision.code;
  } finally {
    await context.close();
  }
}

/** Resolves once everything written to the stream has been handed over (a pipe is asynchronous). */
const drained = (stream: NodeJS.WriteStream) => new Promise<void>((resolve) => stream.write('', () => resolve()));

main(process.argv.slice(2)).then(
  // process.exit drops what a pipe has not taken yet: a large --json result would be cut.
  async (code) => {
    await Promise.all([drained(process.stdout), drained(process.stderr)]);
    process.exit(code);
  },
  (error: unknown) => {
    console.error(error);
    process.exit(1);
  },
);
