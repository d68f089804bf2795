import OpenAI, { toFile } from 'openai';
import { retry } from '@lomo/resilience';
import type {
  GenerationParams,
  GenerationProvider,
  GenerationQuote,
  UpstreamCallbackEvent,
  UpstreamJobState,
  UpstreamStatus,
} from '../provider/generation-provider.port';
import {
  CallbackRejectedError,
  GenerationOutcomeUnknownError,
  GenerationRejectedError,
} from '../provider/generation-errors';
import { withDeadline } from './openai-attempt';
import {
  checkOptions,
  createOpenAiClient,
  IDEMPOTENCY_HEADER,
  isNonNegativeInt,
  isPositiveInt,
  optionString,
  type OpenAiConnectionOptions,
} from './openai-common';
import { translateDownloadError, translateReadError, translateSubmitError } from './openai-generation-errors';
import { DEFAULT_WEBHOOK_TOLERANCE_SECONDS, verifyStandardWebhook, type CallbackHeaders } from './standard-webhook';
import { SubmissionLedger } from './submission-ledger';

/** Integer minor units per second of video, by model then size. */
export interface VideoPriceTable {
  currency: string;
  perSecondMinor: Readonly<Record<string, Readonly<Record<string, number>>>>;
}

/**
 * OpenAI list prices per second in US cents: sora-2 10 at 720x1280 / 1280x720; sora-2-pro 30 at
 * those sizes and 50 at 1024x1792 / 1792x1024. Dated snapshots (`sora-2-2025-10-06`) are priced
 * as their base model. Replace them with your contract's prices through `prices` (README.md).
 */
export const DEFAULT_VIDEO_PRICES: VideoPriceTable = {
  currency: 'USD',
  perSecondMinor: {
    'sora-2': { '720x1280': 10, '1280x720': 10 },
    'sora-2-pro': { '720x1280': 30, '1280x720': 30, '1024x1792': 50, '1792x1024': 50 },
  },
};

export interface OpenAiVideosProviderOptions extends OpenAiConnectionOptions {
  /** Default `sora-2`; a tool may pick another through options.model. */
  model?: string;
  /** Default `openai-videos`. */
  name?: string;
  prices?: VideoPriceTable;
  /** Defaults: 720x1280 and 4 seconds, the API's own defaults. */
  defaultSize?: string;
  defaultSeconds?: number;
  /**
   * The project's webhook signing secret (`whsec_...`). Without it the adapter says it sends no
   * callbacks and rejects every delivery; jobs are then polled.
   */
  webhookSecret?: string;
  webhookToleranceSeconds?: number;
  /** Milliseconds since the epoch; injected so webhook timestamps can be tested. */
  now?: () => number;
  /** Per download attempt, covering the whole body; default 300 000. */
  downloadTimeoutMs?: number;
  /** Attempts for downloadContent on retriable errors; default 3. */
  downloadAttempts?: number;
  downloadRetryDelayMs?: number;
  /** In-process idempotency memory (key → video id); default 1000 entries. */
  maxRememberedSubmissions?: number;
}

const STATUS: Record<OpenAI.Videos.Video['status'], UpstreamStatus> = {
  queued: 'queued',
  in_progress: 'processing',
  completed: 'completed',
  failed: 'failed',
};

const EVENT_STATUS: Readonly<Record<string, UpstreamStatus>> = {
  'video.completed': 'completed',
  'video.failed': 'failed',
};

/**
 * OpenAI's videos API (Sora) behind the GenerationProvider port: create returns a video id at
 * once, the job runs upstream, and its end arrives as a `video.completed` / `video.failed`
 * webhook (when a secret is configured) or is found by polling retrieve.
 *
 * No cancel: the SDK's videos.delete (node_modules/openai/resources/videos.d.ts) "permanently
 * deletes a completed or failed video"; it does not stop a running one, so offering it as cancel
 * would report a cancellation while the upstream keeps rendering and billing.
 */
export class OpenAiVideosProvider implements GenerationProvider {
  readonly name: string;
  readonly sendsCallbacks: boolean;
  private readonly client: OpenAI;
  private readonly model: string;
  private readonly timeoutMs: number;
  private readonly prices: VideoPriceTable;
  private readonly defaultSize: string;
  private readonly defaultSeconds: number;
  private readonly webhookSecret?: string;
  private readonly webhookToleranceSeconds?: number;
  readonly callbackToleranceMs: number;
  private readonly now: () => number;
  private readonly downloadTimeoutMs: number;
  private readonly downloadAttempts: number;
  private readonly downloadRetryDelayMs: number;
  private readonly ledger: SubmissionLedger<string>;

  constructor(options: OpenAiVideosProviderOptions) {
    checkOptions('openai videos provider', [
      !options.apiKey && 'apiKey is required',
      !isPositiveInt(options.timeoutMs) && 'timeoutMs must be a positive integer',
      !isPositiveInt(options.downloadTimeoutMs) && 'downloadTimeoutMs must be a positive integer',
      !isNonNegativeInt(options.maxReadRetries) && 'maxReadRetries must be a non-negative integer',
      !isPositiveInt(options.downloadAttempts) && 'downloadAttempts must be a positive integer',
      !isPositiveInt(options.defaultSeconds) && 'defaultSeconds must be a positive integer',
      !isPositiveInt(options.maxRememberedSubmissions) && 'maxRememberedSubmissions must be a positive integer',
      options.webhookSecret === '' && 'webhookSecret, when given, must not be empty',
      ...priceProblems(options.prices),
    ]);
    this.name = options.name ?? 'openai-videos';
    this.model = options.model ?? 'sora-2';
    this.timeoutMs = options.timeoutMs ?? 60_000;
    this.client = createOpenAiClient(options, this.timeoutMs);
    this.prices = options.prices ?? DEFAULT_VIDEO_PRICES;
    this.defaultSize = options.defaultSize ?? '720x1280';
    this.defaultSeconds = options.defaultSeconds ?? 4;
    this.webhookSecret = options.webhookSecret;
    this.webhookToleranceSeconds = options.webhookToleranceSeconds;
    this.callbackToleranceMs = (options.webhookToleranceSeconds ?? DEFAULT_WEBHOOK_TOLERANCE_SECONDS) * 1000;
    this.sendsCallbacks = options.webhookSecret !== undefined;
    this.now = options.now ?? Date.now;
    this.downloadTimeoutMs = options.downloadTimeoutMs ?? 300_000;
    this.downloadAttempts = options.downloadAttempts ?? 3;
    this.downloadRetryDelayMs = options.downloadRetryDelayMs ?? 500;
    this.ledger = new SubmissionLedger(options.maxRememberedSubmissions ?? 1000);
  }

  quote(params: GenerationParams): GenerationQuote {
    this.checkOperation(params);
    const { model, size, seconds } = this.shape(params);
    const base = model.replace(/-\d{4}-\d{2}-\d{2}$/, '');
    const unitPriceMinor = (this.prices.perSecondMinor[model] ?? this.prices.perSecondMinor[base])?.[size];
    if (unitPriceMinor === undefined) {
      throw new GenerationRejectedError(`${this.name} has no price for ${model} at size ${size}`, undefined, {
        model,
        size,
      });
    }
    return {
      provider: this.name,
      units: seconds,
      unit: 'second',
      unitPriceMinor,
      amountMinor: unitPriceMinor * seconds,
      currency: this.prices.currency,
    };
  }

  async submit(params: GenerationParams, idempotencyKey: string): Promise<{ upstreamJobId: string }> {
    this.checkOperation(params);
    const upstreamJobId = await this.ledger.submit(idempotencyKey, () => this.create(params, idempotencyKey));
    return { upstreamJobId };
  }

  async poll(upstreamJobId: string): Promise<UpstreamJobState> {
    const video = await withDeadline(
      this.timeoutMs,
      // Reads may be retried by the SDK (maxReadRetries): asking again creates nothing.
      (signal) => this.client.videos.retrieve(upstreamJobId, { signal }),
      (error, outcome) => translateReadError(error, outcome, `${this.name} retrieve`, upstreamJobId),
    );
    const status = STATUS[video.status] ?? 'processing';
    const progress = status === 'completed' ? 100 : clampProgress(video.progress);
    const state: UpstreamJobState = { upstreamJobId, status, progress };
    if (status === 'completed') {
      state.result = { contentType: 'video/mp4', download: () => this.download(upstreamJobId) };
    }
    if (status === 'failed') {
      state.failure = {
        code: video.error?.code || 'upstream_failed',
        message: video.error?.message || `${this.name}: video ${upstreamJobId} failed`,
      };
    }
    return state;
  }

  verifyCallback(headers: CallbackHeaders, rawBody: Buffer): UpstreamCallbackEvent {
    if (this.webhookSecret === undefined) {
      throw new CallbackRejectedError('CALLBACK_BAD_SIGNATURE', `${this.name} has no webhook secret configured`);
    }
    const { webhookId, timestamp, payload } = verifyStandardWebhook(headers, rawBody, {
      secret: this.webhookSecret,
      nowMs: this.now(),
      toleranceSeconds: this.webhookToleranceSeconds,
    });
    const event = payload as { type?: unknown; created_at?: unknown; data?: { id?: unknown } } | null;
    const type = typeof event?.type === 'string' ? event.type : undefined;
    const videoId = typeof event?.data?.id === 'string' && event.data.id.length > 0 ? event.data.id : undefined;
    if (!type || !videoId) {
      throw new CallbackRejectedError('CALLBACK_MALFORMED', 'the webhook event has no type or no data.id');
    }
    const status = EVENT_STATUS[type];
    if (!status) {
      // OpenAI webhooks are configured per project, so other event types can reach this endpoint.
      throw new CallbackRejectedError('CALLBACK_MALFORMED', `${type} is not a video job event`);
    }
    return {
      eventId: webhookId,
      upstreamJobId: videoId,
      status,
      progress: status === 'completed' ? 100 : 0,
      sequence: typeof event?.created_at === 'number' ? event.created_at : timestamp,
      ...(status === 'failed'
        ? // The event carries no reason; poll() reads it from the video when it is needed.
          { failure: { code: 'upstream_failed', message: `${this.name}: video ${videoId} failed` } }
        : {}),
    };
  }

  private checkOperation(params: GenerationParams): void {
    if (params.kind !== 'video' || params.operation !== 'video.generate') {
      throw new GenerationRejectedError(`${this.name} does not do ${params.kind} ${params.operation}`);
    }
  }

  private shape(params: GenerationParams): { model: string; size: string; seconds: number } {
    const seconds = Number(
      optionString(params.options, 'seconds', 'duration', 'durationSeconds') ?? this.defaultSeconds,
    );
    if (!Number.isInteger(seconds) || seconds <= 0) {
      throw new GenerationRejectedError(`${this.name}: seconds must be a positive integer`);
    }
    return {
      model: optionString(params.options, 'model') ?? this.model,
      size: optionString(params.options, 'size') ?? this.defaultSize,
      seconds,
    };
  }

  private async create(params: GenerationParams, idempotencyKey: string): Promise<string> {
    const { model, size, seconds } = this.shape(params);
    const reference = params.references?.[0];
    const video = await withDeadline(
      this.timeoutMs,
      async (signal) => {
        const body: OpenAI.Videos.VideoCreateParams = {
          prompt: params.prompt,
          model,
          size: size as OpenAI.Videos.VideoSize,
          seconds: String(seconds) as OpenAI.Videos.VideoSeconds,
          ...(reference
            ? { input_reference: await toFile(reference.bytes, 'reference', { type: reference.contentType }) }
            : {}),
        };
        // maxRetries 0: a create that may have started a paid render is never sent again by the SDK.
        return this.client.videos.create(body, {
          signal,
          maxRetries: 0,
          headers: { [IDEMPOTENCY_HEADER]: idempotencyKey },
        });
      },
      (error, outcome) => translateSubmitError(error, outcome, `${this.name} create`),
    );
    if (typeof video?.id !== 'string' || video.id.length === 0) {
      throw new GenerationOutcomeUnknownError(`${this.name} create: the answer carried no video id`);
    }
    return video.id;
  }

  /** The MP4, retried on retriable errors; it never regenerates, only fetches again. */
  private download(upstreamJobId: string): Promise<Buffer> {
    return retry(
      () =>
        withDeadline(
          this.downloadTimeoutMs,
          async (signal) => {
            const response = await this.client.videos.downloadContent(
              upstreamJobId,
              { variant: 'video' },
              { signal, maxRetries: 0 },
            );
            return Buffer.from(await response.arrayBuffer());
          },
          (error, outcome) => translateDownloadError(error, outcome, `${this.name} download ${upstreamJobId}`),
        ),
      { maxAttempts: this.downloadAttempts, initialDelayMs: this.downloadRetryDelayMs, maxDelayMs: 8_000 },
    );
  }
}

function clampProgress(progress: unknown): number {
  const n = typeof progress === 'number' && Number.isFinite(progress) ? Math.round(progress) : 0;
  return Math.min(100, Math.max(0, n));
}

function priceProblems(prices: VideoPriceTable | undefined): string[] {
  if (!prices) return [];
  const problems: string[] = [];
  if (!/^[A-Z]{3}$/.test(prices.currency)) problems.push('prices.currency must be an ISO 4217 code');
  for (const [model, sizes] of Object.entries(prices.perSecondMinor)) {
    for (const [size, minor] of Object.entries(sizes)) {
      if (!Number.isInteger(minor) || minor < 0) {
        problems.push(`prices.perSecondMinor.${model}.${size} must be a non-negative integer (minor units)`);
      }
    }
  }
  return problems;
}
