import type { Clock } from '@lomo/contracts';
import {
  seededRandom,
  SimulatedGenerationProvider,
  SimulatedUpstream,
  type SimulatedCallbackDelivery,
  type SimulatedGenerationProviderOptions,
  type SimulatedUpstreamControl,
} from '../simulated';

export interface InProcessSimulatedProvider {
  provider: SimulatedGenerationProvider;
  upstream: SimulatedUpstream;
  /** Every signed callback the upstream produced, in the order it sent them. */
  deliveries: SimulatedCallbackDelivery[];
  /** The fetch the provider uses: routes into upstream.handle, never opens a socket. */
  fetch: typeof fetch;
}

export const inProcessSimulatedBaseUrl = 'http://sim-upstream.in-process';
export const inProcessCallbackSecret = 'in-process-callback-secret';

/**
 * The simulated provider and upstream in one process, for unit tests only: the same
 * SimulatedUpstream and SimulatedGenerationProvider as the HTTP service, with a fetch that calls
 * `handle` directly. 'refuse' becomes an ECONNREFUSED-shaped fetch failure, timeoutAfterCreate a
 * fetch that only ends when the provider's AbortSignal fires.
 */
export function createInProcessSimulatedProvider(
  options: {
    clock?: Clock;
    seed?: number;
    start?: SimulatedUpstreamControl;
    /** Called for each delivery, after it is recorded (e.g. to feed verifyCallback). */
    onDelivery?: (delivery: SimulatedCallbackDelivery) => void;
    provider?: Partial<SimulatedGenerationProviderOptions>;
  } = {},
): InProcessSimulatedProvider {
  const deliveries: SimulatedCallbackDelivery[] = [];
  const upstream = new SimulatedUpstream({
    clock: options.clock,
    random: seededRandom(options.seed ?? 1),
    deliver: (d) => {
      deliveries.push(d);
      options.onDelivery?.(d);
    },
    start: {
      ...options.start,
      config: {
        callbackUrl: 'http://receiver.in-process/callbacks',
        callbackSecret: inProcessCallbackSecret,
        ...options.start?.config,
      },
    },
  });
  const inProcessFetch = (async (input: string | URL | Request, init?: RequestInit): Promise<Response> => {
    const request = new Request(input, init);
    const signal = init?.signal ?? undefined;
    signal?.throwIfAborted();
    const headers: Record<string, string> = {};
    request.headers.forEach((value, name) => (headers[name] = value));
    const url = new URL(request.url);
    const outcome = await upstream.handle({
      method: request.method,
      url: `${url.pathname}${url.search}`,
      headers,
      body: Buffer.from(await request.arrayBuffer()),
    });
    if (outcome.kind === 'refuse') {
      throw new TypeError('fetch failed', {
        cause: Object.assign(new Error('connect ECONNREFUSED'), { code: 'ECONNREFUSED' }),
      });
    }
    const toResponse = (r: { status: number; headers: Record<string, string>; body: Buffer }) =>
      new Response(r.status === 204 ? null : new Uint8Array(r.body), { status: r.status, headers: r.headers });
    if (outcome.kind === 'reply') return toResponse(outcome.reply);
    return new Promise<Response>((resolve, reject) => {
      const timer =
        outcome.afterMs === null ? undefined : setTimeout(() => resolve(toResponse(outcome.reply)), outcome.afterMs);
      signal?.addEventListener('abort', () => {
        clearTimeout(timer);
        reject(signal.reason);
      });
    });
  }) as typeof fetch;
  const provider = new SimulatedGenerationProvider({
    baseUrl: inProcessSimulatedBaseUrl,
    callbackSecret: upstream.config.callbackSecret,
    clock: options.clock,
    fetch: inProcessFetch,
    requestTimeoutMs: 200,
    ...options.provider,
  });
  return { provider, upstream, deliveries, fetch: inProcessFetch };
}
