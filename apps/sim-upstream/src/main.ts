import { parseSimulatedUpstreamSettings, startSimulatedUpstreamServer } from '@lomo/generation';
import { createLogger } from '@lomo/observability';

/**
 * The simulated media upstream as its own process (a separate service, so a restart of it is a
 * real restart). Settings: parseSimulatedUpstreamSettings (env SIM_UPSTREAM_*, --name=value).
 * SIGTERM/SIGINT close the server; jobs live on in the state file.
 */
async function main(): Promise<void> {
  const settings = parseSimulatedUpstreamSettings(process.env, process.argv.slice(2));
  const logger = createLogger({ name: 'sim-upstream', level: settings.logLevel });
  const server = await startSimulatedUpstreamServer({ ...settings, logger });
  let stopping = false;
  const stop = (signal: string) => {
    if (stopping) return;
    stopping = true;
    logger.info({ signal }, 'sim-upstream stopping');
    server.close().then(
      () => process.exit(0),
      (error: unknown) => {
        logger.error({ err: (error as Error).message }, 'sim-upstream did not stop cleanly');
        process.exit(1);
      },
    );
  };
  // Started by an app as its child (libs/application/src/generation/sim-upstream-supervisor.ts):
  // the parent holds our stdin, so its end means the parent is gone.
  if (process.env.SIM_UPSTREAM_EXIT_WITH_PARENT === '1') {
    process.stdin.on('end', () => stop('parent gone'));
    process.stdin.on('close', () => stop('parent gone'));
    process.stdin.resume();
  }
  process.once('SIGTERM', () => stop('SIGTERM'));
  process.once('SIGINT', () => stop('SIGINT'));
}

main().catch((error: unknown) => {
  console.error(JSON.stringify({ level: 'error', msg: 'sim-upstream failed to start', err: (error as Error).message }));
  process.exit(1);
});
