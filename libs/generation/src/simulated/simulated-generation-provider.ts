import { z } from 'zod';
import { systemClock, type Clock } from '@lomo/contracts';
import { silentLogger, type Logger } from '@lomo/observability';
import { retryAfterMs } from '@lomo/resilience';
import {
  CallbackRejectedError,
  GenerationAuthFailedError,
  GenerationOutcomeUnknownError,
  GenerationRateLimitedError,
  GenerationRejectedError,
  GenerationUnavailableError,
  ResultDownloadError,
  UpstreamJobNotFoundError,
  type GenerationParams,
  type GenerationProvider,
  type GenerationQuote,
  type UpstreamCallbackEvent,
  type UpstreamJobState,
} from '../provider';
import {
  SIM_EVENT_ID_HEADER,
  SIM_SIGNATURE_HEADER,
  SIM_TIMESTAMP_HEADER,
  simulatedSignatureMatches,
} from './callback-signing';
import { defaultSimulatedCurrency, defaultSimulatedPrices, simulatedQuote, type SimulatedPriceTable } from './prices';

export interface SimulatedGenerationProviderOptions {
  /** The upstream's base URL, e.g. http://127.0.0.1:4870. */
  baseUrl: string;
  /** The upstream's callback signing secret; without it the provider says it sends no callbacks. */
  callbackSecret?: string;
  apiKey?: string;
  /** Sent with each job, so the upstream calls this URL back (else its configured default). */
  callbackUrl?: string;
  /** Only for verifyCallback's timestamp tolerance. */
  clock?: Clock;
  /** Per submit / poll / cancel request. */
  requestTimeoutMs?: number;
  downloadTimeoutMs?: number;
  /** How far a callback's signed timestamp may be from the clock, either way. */
  callbackToleranceMs?: number;
  /** Must be the upstream's table: quote() is what the upstream records for the job. */
  prices?: SimulatedPriceTable;
  currency?: string;
  name?: string;
  /** The in-process test mode passes a fetch that never opens a socket. */
  fetch?: typeof fetch;
  logger?: Logger;
}

/** Connection errors that happen before a request byte is written: nothing reached the upstream. */
const notSentCodes = new Set([
  'ECONNREFUSED',
  'ENOTFOUND',
  'EAI_AGAIN',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'UND_ERR_CONNECT_TIMEOUT',
]);

/** undici reports socket errors as `TypeError: fetch failed` with the errno somewhere in `cause`. */
function errorCodes(error: unknown, depth = 0): string[] {
  if (!error || typeof error !== 'object' || depth > 5) return [];
  const e = error as { code?: unknown; cause?: unknown; errors?: unknown };
  const own = typeof e.code === 'string' ? [e.code] : [];
  const nested = Array.isArray(e.errors) ? e.errors.flatMap((x) => errorCodes(x, depth + 1)) : [];
  return [...own, ...nested, ...errorCodes(e.cause, depth + 1)];
}

function isTimeout(error: unknown): boolean {
  const name = (error as { name?: unknown } | null)?.name;
  return name === 'TimeoutError' || name === 'AbortError';
}

function wasNotSent(error: unknown): boolean {
  const codes = errorCodes(error);
  return codes.length > 0 && codes.every((c) => notSentCodes.has(c));
}

function describe(error: unknown): Record<string, unknown> {
  return { err: (error as Error)?.message, codes: errorCodes(error), timeout: isTimeout(error) };
}

const jobSchema = z.object({
  id: z.string().min(1),
  status: z.enum(['queued', 'processing', 'completed', 'failed', 'cancelled']),
  progress: z.number().min(0).max(100),
  failure: z.object({ code: z.string(), message: z.string() }).optional(),
  result: z.object({ contentType: z.string(), url: z.string() }).optional(),
});

const callbackSchema = z.object({
  eventId: z.string().min(1),
  jobId: z.string().min(1),
  status: z.enum(['queued', 'processing', 'completed', 'failed', 'cancelled']),
  progress: z.number().min(0).max(100),
  sequence: z.number().int().nonnegative(),
  failure: z.object({ code: z.string(), message: z.string() }).optional(),
});

function header(headers: Readonly<Record<string, string | string[] | undefined>>, name: string): string | undefined {
  let value = headers[name];
  if (value === undefined) {
    const key = Object.keys(headers).find((k) => k.toLowerCase() === name);
    value = key === undefined ? undefined : headers[key];
  }
  if (Array.isArray(value)) {
    if (name === SIM_SIGNATURE_HEADER) return value.join(',');
    if (new Set(value).size > 1) {
      throw new CallbackRejectedError('CALLBACK_MALFORMED', `The callback carries several different ${name} headers`);
    }
    return value[0];
  }
  return value;
}

async function errorMessage(res: Response): Promise<{ message: string; code?: string }> {
  try {
    const body = (await res.json()) as { error?: { message?: unknown; code?: unknown } };
    return {
      message: typeof body.error?.message === 'string' ? body.error.message : `HTTP ${res.status}`,
      code: typeof body.error?.code === 'string' ? body.error.code : undefined,
    };
  } catch {
    return { message: `HTTP ${res.status}` };
  }
}

/**
 * GenerationProvider over the simulated upstream's HTTP API (simulated-upstream.ts). Its error
 * mapping is the contract every adapter keeps: a submit whose request may have reached the
 * upstream and got no usable answer is GenerationOutcomeUnknownError (a job may exist); any
 * other error proves no job was created.
 */
export class SimulatedGenerationProvider implements GenerationProvider {
  readonly name: string;
  readonly sendsCallbacks: boolean;
  private readonly baseUrl: string;
  private readonly clock: Clock;
  private readonly fetchImpl: typeof fetch;
  private readonly logger: Logger;
  private readonly requestTimeoutMs: number;
  private readonly downloadTimeoutMs: number;
  readonly callbackToleranceMs: number;
  private readonly prices: SimulatedPriceTable;
  private readonly currency: string;

  constructor(private readonly options: SimulatedGenerationProviderOptions) {
    this.name = options.name ?? 'simulated';
    this.sendsCallbacks = options.callbackSecret !== undefined;
    this.baseUrl = options.baseUrl.replace(/\/+$/, '');
    this.clock = options.clock ?? systemClock;
    this.fetchImpl = options.fetch ?? fetch;
    this.logger = (options.logger ?? silentLogger).child({ provider: this.name });
    this.requestTimeoutMs = options.requestTimeoutMs ?? 10_000;
    this.downloadTimeoutMs = options.downloadTimeoutMs ?? 30_000;
    this.callbackToleranceMs = options.callbackToleranceMs ?? 5 * 60_000;
    this.prices = options.prices ?? defaultSimulatedPrices;
    this.currency = options.currency ?? defaultSimulatedCurrency;
  }

  quote(params: GenerationParams): GenerationQuote {
    try {
      return simulatedQuote(this.name, params, this.prices, this.currency);
    } catch (error) {
      throw new GenerationRejectedError((error as Error).message, undefined, { kind: params.kind });
    }
  }

  async submit(params: GenerationParams, idempotencyKey: string): Promise<{ upstreamJobId: string }> {
    const body = JSON.stringify({
      kind: params.kind,
      operation: params.operation,
      prompt: params.prompt,
      options: params.options,
      references: params.references?.map((r) => ({
        contentType: r.contentType,
        bytesBase64: r.bytes.toString('base64'),
      })),
      callbackUrl: this.options.callbackUrl,
    });
    const context = { idempotencyKey, kind: params.kind, operation: params.operation };
    let res: Response;
    let text: string;
    try {
      res = await this.fetchImpl(`${this.baseUrl}/v1/jobs`, {
        method: 'POST',
        headers: { ...this.authHeaders(), 'content-type': 'application/json', 'idempotency-key': idempotencyKey },
        body,
        signal: AbortSignal.timeout(this.requestTimeoutMs),
      });
    } catch (error) {
      if (!isTimeout(error) && wasNotSent(error)) {
        this.logger.warn({ ...context, ...describe(error) }, 'simulated upstream unreachable; no job was created');
        throw new GenerationUnavailableError('The simulated upstream refused the connection', context);
      }
      this.logger.warn({ ...context, ...describe(error) }, 'simulated submit got no answer; outcome unknown');
      throw new GenerationOutcomeUnknownError('The submit request got no answer; a job may exist upstream', {
        ...context,
        cause: (error as Error)?.message,
      });
    }
    const status = res.status;
    if (status === 429) {
      await res.arrayBuffer().catch(() => undefined);
      const wait = retryAfterMs(res.headers, this.clock.now().getTime());
      throw new GenerationRateLimitedError('The simulated upstream is rate limiting submissions', wait);
    }
    if (status === 401 || status === 403) {
      await res.arrayBuffer().catch(() => undefined);
      throw new GenerationAuthFailedError(`The simulated upstream refused the credentials (HTTP ${status})`);
    }
    if (status >= 400 && status < 500 && status !== 408) {
      const { message, code } = await errorMessage(res);
      throw new GenerationRejectedError(message, status, { ...context, upstreamCode: code });
    }
    if (status < 200 || status >= 300) {
      // 5xx (and 408) after the request was sent: the upstream may have created the job before failing.
      await res.arrayBuffer().catch(() => undefined);
      this.logger.warn(
        { ...context, status },
        'simulated submit answered with an error after sending; outcome unknown',
      );
      throw new GenerationOutcomeUnknownError(
        `The submit request failed with HTTP ${status}; a job may exist upstream`,
        {
          ...context,
          status,
        },
      );
    }
    try {
      text = await res.text();
      const job = jobSchema.parse(JSON.parse(text));
      this.logger.debug({ ...context, upstreamJobId: job.id, status }, 'simulated job submitted');
      return { upstreamJobId: job.id };
    } catch (error) {
      // A 2xx whose body was cut off or unreadable still means the job exists.
      throw new GenerationOutcomeUnknownError('The submit answer could not be read; the job exists upstream', {
        ...context,
        status,
        cause: (error as Error)?.message,
      });
    }
  }

  async poll(upstreamJobId: string): Promise<UpstreamJobState> {
    const res = await this.request('GET', `/v1/jobs/${encodeURIComponent(upstreamJobId)}`, upstreamJobId);
    let job: z.infer<typeof jobSchema>;
    try {
      job = jobSchema.parse(await res.json());
    } catch (error) {
      throw new GenerationUnavailableError('The simulated upstream sent an unreadable job', {
        upstreamJobId,
        cause: (error as Error)?.message,
      });
    }
    const result = job.status === 'completed' && job.result ? job.result : undefined;
    return {
      upstreamJobId: job.id,
      status: job.status,
      progress: job.progress,
      failure: job.failure,
      result: result && {
        contentType: result.contentType,
        download: () => this.download(new URL(result.url, `${this.baseUrl}/`).toString(), upstreamJobId),
      },
    };
  }

  async cancel(upstreamJobId: string): Promise<void> {
    const res = await this.request('POST', `/v1/jobs/${encodeURIComponent(upstreamJobId)}/cancel`, upstreamJobId);
    await res.arrayBuffer().catch(() => undefined);
  }

  verifyCallback(
    headers: Readonly<Record<string, string | string[] | undefined>>,
    rawBody: Buffer,
  ): UpstreamCallbackEvent {
    const secret = this.options.callbackSecret;
    if (!secret) throw new CallbackRejectedError('CALLBACK_BAD_SIGNATURE', 'This provider has no callback secret');
    const eventId = header(headers, SIM_EVENT_ID_HEADER);
    const timestamp = header(headers, SIM_TIMESTAMP_HEADER);
    const signature = header(headers, SIM_SIGNATURE_HEADER);
    if (!eventId || !timestamp || !signature) {
      throw new CallbackRejectedError('CALLBACK_BAD_SIGNATURE', 'The callback is not signed');
    }
    if (!/^\d{1,12}$/.test(timestamp)) {
      throw new CallbackRejectedError('CALLBACK_MALFORMED', 'The callback timestamp is not unix seconds');
    }
    const seconds = Number(timestamp);
    // The signature is checked before anything else is believed, the timestamp included.
    if (!simulatedSignatureMatches(secret, eventId, seconds, rawBody, signature)) {
      throw new CallbackRejectedError('CALLBACK_BAD_SIGNATURE', 'The callback signature does not match');
    }
    const skewMs = Math.abs(this.clock.now().getTime() - seconds * 1000);
    if (skewMs > this.callbackToleranceMs) {
      throw new CallbackRejectedError('CALLBACK_STALE_TIMESTAMP', 'The callback timestamp is outside the tolerance');
    }
    let parsed: z.infer<typeof callbackSchema>;
    try {
      parsed = callbackSchema.parse(JSON.parse(rawBody.toString('utf8')));
    } catch {
      throw new CallbackRejectedError('CALLBACK_MALFORMED', 'The callback body is not a simulated job event');
    }
    if (parsed.eventId !== eventId) {
      throw new CallbackRejectedError('CALLBACK_MALFORMED', 'The callback body names another event than its header');
    }
    return {
      eventId,
      upstreamJobId: parsed.jobId,
      status: parsed.status,
      progress: parsed.progress,
      sequence: parsed.sequence,
      failure: parsed.failure,
    };
  }

  private authHeaders(): Record<string, string> {
    return this.options.apiKey ? { authorization: `Bearer ${this.options.apiKey}` } : {};
  }

  /** poll and cancel: no side effect to lose, so every transport failure is plainly retriable. */
  private async request(method: 'GET' | 'POST', path: string, upstreamJobId: string): Promise<Response> {
    let res: Response;
    try {
      res = await this.fetchImpl(`${this.baseUrl}${path}`, {
        method,
        headers: this.authHeaders(),
        signal: AbortSignal.timeout(this.requestTimeoutMs),
      });
    } catch (error) {
      this.logger.warn({ upstreamJobId, method, path, ...describe(error) }, 'simulated upstream request failed');
      throw new GenerationUnavailableError('The simulated upstream did not answer', { upstreamJobId, method });
    }
    if (res.ok) return res;
    await res.arrayBuffer().catch(() => undefined);
    if (res.status === 404) throw new UpstreamJobNotFoundError(upstreamJobId);
    if (res.status === 429) {
      throw new GenerationRateLimitedError(
        'The simulated upstream is rate limiting',
        retryAfterMs(res.headers, this.clock.now().getTime()),
      );
    }
    if (res.status === 401 || res.status === 403) {
      throw new GenerationAuthFailedError(`The simulated upstream refused the credentials (HTTP ${res.status})`);
    }
    if (res.status >= 500) {
      throw new GenerationUnavailableError(`The simulated upstream failed with HTTP ${res.status}`, {
        upstreamJobId,
        status: res.status,
      });
    }
    throw new GenerationRejectedError(`The simulated upstream refused ${method} ${path}`, res.status, {
      upstreamJobId,
    });
  }

  private async download(url: string, upstreamJobId: string): Promise<Buffer> {
    let res: Response;
    try {
      res = await this.fetchImpl(url, {
        headers: this.authHeaders(),
        signal: AbortSignal.timeout(this.downloadTimeoutMs),
      });
    } catch (error) {
      this.logger.warn({ upstreamJobId, ...describe(error) }, 'simulated result download failed');
      throw new ResultDownloadError('The result download got no answer', true);
    }
    if (!res.ok) {
      await res.arrayBuffer().catch(() => undefined);
      // 5xx and 429 pass; anything else (404 expired, 409 not ready, 401) will not by retrying.
      const retriable = res.status >= 500 || res.status === 429;
      this.logger.warn({ upstreamJobId, status: res.status, retriable }, 'simulated result download refused');
      throw new ResultDownloadError(`The result download failed with HTTP ${res.status}`, retriable);
    }
    try {
      return Buffer.from(await res.arrayBuffer());
    } catch (error) {
      this.logger.warn({ upstreamJobId, ...describe(error) }, 'simulated result download cut off');
      throw new ResultDownloadError('The result download was cut off', true);
    }
  }
}
