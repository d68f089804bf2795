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
  const stop = (signal: string) => {
    logger.info({ signal }, 'sim-upstream stopping');
    server.close().then(
      () => process.exit(0),
      (error: unknown) => {
        logger.error({ err: (error as Error).message }, 'sim-upstream did not stop cleanly');
        process.exit(1);
      },
    );
  };
  process.once('SIGTERM', () => stop('SIGTERM'));
  process.once('SIGINT', () => stop('SIGINT'));
}

main().catch((error: unknown) => {
  console.error(JSON.stringify({ level: 'error', msg: 'sim-upstream failed to start', err: (error as Error).message }));
  process.exit(1);
});
