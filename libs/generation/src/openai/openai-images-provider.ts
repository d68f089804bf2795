import { createHash } from 'node:crypto';
import OpenAI, { toFile } from 'openai';
import { retry } from '@lomo/resilience';
import type {
  GenerationParams,
  GenerationProvider,
  GenerationQuote,
  UpstreamCallbackEvent,
  UpstreamJobState,
  UpstreamResult,
} from '../provider/generation-provider.port';
import {
  CallbackRejectedError,
  GenerationOutcomeUnknownError,
  GenerationRejectedError,
  ResultDownloadError,
  UpstreamJobNotFoundError,
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
import { translateDownloadError, translateSubmitError } from './openai-generation-errors';
import { SubmissionLedger } from './submission-ledger';

/** Integer minor units per image, by quality then size (`1024x1024`...). */
export interface ImagePriceTable {
  currency: string;
  perImageMinor: Readonly<Record<string, Readonly<Record<string, number>>>>;
}

/**
 * gpt-image-1 list prices per image in US cents, each rounded UP to a whole cent (a quote must
 * never reserve less than the upstream bills): low 1.1/1.6/1.6, medium 4.2/6.3/6.3, high
 * 16.7/25/25 cents for 1024x1024 / 1024x1536 / 1536x1024. Replace them with your contract's
 * prices through `prices`; README.md says so too.
 */
export const DEFAULT_IMAGE_PRICES: ImagePriceTable = {
  currency: 'USD',
  perImageMinor: {
    low: { '1024x1024': 2, '1024x1536': 2, '1536x1024': 2 },
    medium: { '1024x1024': 5, '1024x1536': 7, '1536x1024': 7 },
    high: { '1024x1024': 17, '1024x1536': 25, '1536x1024': 25 },
  },
};

export interface OpenAiImagesProviderOptions extends OpenAiConnectionOptions {
  /** Default `gpt-image-1`. */
  model?: string;
  /** Stored on jobs and used in routes; default `openai-images`. */
  name?: string;
  prices?: ImagePriceTable;
  /** Used when the tool sent none; also what the quote prices. Defaults 1024x1024 / medium. */
  defaultSize?: string;
  defaultQuality?: string;
  /** How many finished results (and their idempotency memory) this process keeps; default 32. */
  maxRetainedResults?: number;
  /** Attempts for downloading a URL result (dall-e models answer with URLs); default 3. */
  downloadAttempts?: number;
  downloadRetryDelayMs?: number;
}

const OPERATIONS = ['image.generate', 'image.edit'] as const;
type ImageOperation = (typeof OPERATIONS)[number];

/** What the synchronous answer left us: the bytes inline, or a URL to fetch them from. */
interface ImageOutcome {
  upstreamJobId: string;
  contentType: string;
  b64?: string;
  url?: string;
}

const CONTENT_TYPES: Record<string, string> = { png: 'image/png', jpeg: 'image/jpeg', webp: 'image/webp' };

/**
 * OpenAI's images API (images.generate, images.edit) behind the GenerationProvider port.
 *
 * The API answers synchronously: the image is in the response to the request that creates it.
 * The port's asynchronous shape is mapped onto that as follows:
 * - submit(params, key) performs the whole paid request and keeps the answer in memory under an
 *   upstream id minted locally from the key (`img_` + sha256(name, key)), then returns that id.
 *   The same key submitted again in this process gets the same id and no second request: while
 *   the first is in flight it is awaited, after success its answer is reused, after an
 *   outcome-unknown the same error is thrown again (./submission-ledger.ts).
 * - poll(id) answers `completed` (progress 100) with a result whose download() decodes the
 *   base64 or fetches the URL the API returned; an id this process does not hold (another
 *   process made it, or it was evicted, or the process restarted) is UpstreamJobNotFoundError.
 * - Across processes nothing is shared: the job layer records the upstream id the moment submit
 *   returns and must not call submit again for a key whose job already has one; a crash between
 *   the request and that record is the port's submit-timeout window (contracts `submit_timeout`).
 * - No callbacks (sendsCallbacks false) and no cancel: there is nothing running to cancel.
 */
export class OpenAiImagesProvider implements GenerationProvider {
  readonly name: string;
  readonly sendsCallbacks = false;
  private readonly client: OpenAI;
  private readonly model: string;
  private readonly timeoutMs: number;
  private readonly prices: ImagePriceTable;
  private readonly defaultSize: string;
  private readonly defaultQuality: string;
  private readonly downloadAttempts: number;
  private readonly downloadRetryDelayMs: number;
  private readonly ledger: SubmissionLedger<ImageOutcome>;

  constructor(options: OpenAiImagesProviderOptions) {
    checkOptions('openai images provider', [
      !options.apiKey && 'apiKey is required',
      !isPositiveInt(options.timeoutMs) && 'timeoutMs must be a positive integer',
      !isNonNegativeInt(options.maxReadRetries) && 'maxReadRetries must be a non-negative integer',
      !isPositiveInt(options.maxRetainedResults) && 'maxRetainedResults must be a positive integer',
      !isPositiveInt(options.downloadAttempts) && 'downloadAttempts must be a positive integer',
      ...priceProblems(options.prices),
    ]);
    this.name = options.name ?? 'openai-images';
    this.model = options.model ?? 'gpt-image-1';
    // Image generation takes tens of seconds at high quality; the answer carries the image.
    this.timeoutMs = options.timeoutMs ?? 180_000;
    this.client = createOpenAiClient(options, this.timeoutMs);
    this.prices = options.prices ?? DEFAULT_IMAGE_PRICES;
    this.defaultSize = options.defaultSize ?? '1024x1024';
    this.defaultQuality = options.defaultQuality ?? 'medium';
    this.downloadAttempts = options.downloadAttempts ?? 3;
    this.downloadRetryDelayMs = options.downloadRetryDelayMs ?? 500;
    this.ledger = new SubmissionLedger(options.maxRetainedResults ?? 32);
  }

  quote(params: GenerationParams): GenerationQuote {
    this.operationOf(params);
    const { size, quality } = this.sizeAndQuality(params);
    const unitPriceMinor = this.prices.perImageMinor[quality]?.[size];
    if (unitPriceMinor === undefined) {
      throw new GenerationRejectedError(`${this.name} has no price for quality ${quality} at size ${size}`, undefined, {
        quality,
        size,
      });
    }
    return {
      provider: this.name,
      units: 1,
      unit: 'image',
      unitPriceMinor,
      amountMinor: unitPriceMinor,
      currency: this.prices.currency,
    };
  }

  async submit(params: GenerationParams, idempotencyKey: string): Promise<{ upstreamJobId: string }> {
    const operation = this.operationOf(params);
    if (operation === 'image.edit' && !params.references?.length) {
      throw new GenerationRejectedError('image.edit needs at least one reference image');
    }
    const upstreamJobId = this.mintId(idempotencyKey);
    const outcome = await this.ledger.submit(upstreamJobId, () =>
      this.request(operation, params, idempotencyKey, upstreamJobId),
    );
    return { upstreamJobId: outcome.upstreamJobId };
  }

  poll(upstreamJobId: string): Promise<UpstreamJobState> {
    const entry = this.ledger.get(upstreamJobId);
    if (entry?.state === 'pending') {
      return Promise.resolve({ upstreamJobId, status: 'processing', progress: 0 });
    }
    // Not made here, evicted, lost on restart, or its request ended outcome-unknown.
    if (entry?.state !== 'done') return Promise.reject(new UpstreamJobNotFoundError(upstreamJobId));
    return Promise.resolve({ upstreamJobId, status: 'completed', progress: 100, result: this.resultOf(entry.value) });
  }

  verifyCallback(): UpstreamCallbackEvent {
    throw new CallbackRejectedError('CALLBACK_UNKNOWN_PROVIDER', `${this.name} sends no callbacks`);
  }

  private operationOf(params: GenerationParams): ImageOperation {
    if (params.kind !== 'image' || !(OPERATIONS as readonly string[]).includes(params.operation)) {
      throw new GenerationRejectedError(`${this.name} does not do ${params.kind} ${params.operation}`);
    }
    return params.operation as ImageOperation;
  }

  private sizeAndQuality(params: GenerationParams): { size: string; quality: string } {
    return {
      size: optionString(params.options, 'size') ?? this.defaultSize,
      quality: optionString(params.options, 'quality') ?? this.defaultQuality,
    };
  }

  private mintId(idempotencyKey: string): string {
    const digest = createHash('sha256').update(this.name).update('\0').update(idempotencyKey).digest('hex');
    return `img_${digest.slice(0, 40)}`;
  }

  private async request(
    operation: ImageOperation,
    params: GenerationParams,
    idempotencyKey: string,
    upstreamJobId: string,
  ): Promise<ImageOutcome> {
    const { size, quality } = this.sizeAndQuality(params);
    const background = optionString(params.options, 'background') as 'transparent' | 'opaque' | 'auto' | undefined;
    const outputFormat = optionString(params.options, 'outputFormat', 'output_format', 'format') as
      'png' | 'jpeg' | 'webp' | undefined;
    const common = {
      model: this.model,
      prompt: params.prompt,
      n: 1,
      size,
      quality,
      ...(background ? { background } : {}),
      ...(outputFormat ? { output_format: outputFormat } : {}),
    } as const;
    // maxRetries 0: the SDK must never send a request that may have created a paid image twice.
    const requestOptions = (signal: AbortSignal) => ({
      signal,
      maxRetries: 0,
      headers: { [IDEMPOTENCY_HEADER]: idempotencyKey },
    });

    const response = await withDeadline(
      this.timeoutMs,
      async (signal) => {
        if (operation === 'image.generate') {
          return this.client.images.generate(
            { ...common, quality: common.quality as OpenAI.ImageGenerateParams['quality'] },
            requestOptions(signal),
          );
        }
        const images = await Promise.all(
          (params.references ?? []).map((ref, index) =>
            toFile(ref.bytes, `reference-${index}.${extensionOf(ref.contentType)}`, { type: ref.contentType }),
          ),
        );
        return this.client.images.edit(
          { ...common, quality: common.quality as OpenAI.ImageEditParams['quality'], image: images },
          requestOptions(signal),
        );
      },
      (error, outcome) => translateSubmitError(error, outcome, `${this.name} ${operation}`),
    );

    const image = response.data?.[0];
    if (!image?.b64_json && !image?.url) {
      // The request succeeded and was billed, but gave us nothing usable: not a refusal.
      throw new GenerationOutcomeUnknownError(`${this.name} ${operation}: the answer carried no image`);
    }
    const format = response.output_format ?? outputFormat ?? 'png';
    return {
      upstreamJobId,
      contentType: CONTENT_TYPES[format] ?? 'image/png',
      ...(image.b64_json ? { b64: image.b64_json } : { url: image.url }),
    };
  }

  private resultOf(outcome: ImageOutcome): UpstreamResult {
    if (outcome.b64 !== undefined) {
      const b64 = outcome.b64;
      return { contentType: outcome.contentType, download: () => Promise.resolve(Buffer.from(b64, 'base64')) };
    }
    const url = outcome.url ?? '';
    return { contentType: outcome.contentType, download: () => this.downloadUrl(url) };
  }

  /** URL results (dall-e) are plain HTTPS downloads, not API calls: fetched with our own retries. */
  private downloadUrl(url: string): Promise<Buffer> {
    return retry(
      () =>
        withDeadline(
          this.timeoutMs,
          async (signal) => {
            const response = await fetch(url, { signal });
            if (!response.ok) {
              const retriable = response.status === 408 || response.status === 429 || response.status >= 500;
              throw new ResultDownloadError(`image download answered ${response.status}`, retriable);
            }
            return Buffer.from(await response.arrayBuffer());
          },
          (error, outcome) => translateDownloadError(error, outcome, 'image download'),
        ),
      { maxAttempts: this.downloadAttempts, initialDelayMs: this.downloadRetryDelayMs, maxDelayMs: 8_000 },
    );
  }
}

function extensionOf(contentType: string): string {
  const subtype = contentType.split('/')[1]?.split(';')[0]?.trim();
  return subtype === 'jpeg' || subtype === 'webp' || subtype === 'png' ? subtype : 'png';
}

function priceProblems(prices: ImagePriceTable | undefined): string[] {
  if (!prices) return [];
  const problems: string[] = [];
  if (!/^[A-Z]{3}$/.test(prices.currency)) problems.push('prices.currency must be an ISO 4217 code');
  for (const [quality, sizes] of Object.entries(prices.perImageMinor)) {
    for (const [size, minor] of Object.entries(sizes)) {
      if (!Number.isInteger(minor) || minor < 0) {
        problems.push(`prices.perImageMinor.${quality}.${size} must be a non-negative integer (minor units)`);
      }
    }
  }
  return problems;
}
