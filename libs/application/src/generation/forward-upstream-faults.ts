import type { Logger } from '@lomo/observability';
import type { TestControlState, TestFaults } from '@lomo/platform';

/**
 * duplicate_callbacks and lost_callbacks are the simulated upstream's own faults: with test
 * control on, this process's switches follow into its POST /control (at start, since the upstream
 * keeps no faults across its restarts, and at every change through /test-control/faults). A
 * change the upstream refuses fails the HTTP request that asked for it.
 */
export async function forwardUpstreamFaults(
  state: TestControlState,
  upstreamUrl: string,
  logger: Logger,
  fetchFn: typeof fetch = fetch,
): Promise<void> {
  await state.onFaults(async (faults: TestFaults) => {
    const body = { faults: { duplicateCallbacks: faults.duplicateCallbacks, lostCallbacks: faults.lostCallbacks } };
    const response = await fetchFn(`${upstreamUrl}/control`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(body),
      signal: AbortSignal.timeout(10_000),
    });
    if (!response.ok)
      throw new Error(`The simulated upstream refused the faults (${response.status}): ${await response.text()}`);
    logger.info({ component: 'test-control', upstream: upstreamUrl, ...body.faults }, 'upstream faults forwarded');
  });
}
