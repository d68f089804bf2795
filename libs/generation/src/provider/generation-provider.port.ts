/**
 * The upstream that makes media (DESIGN.md §3 `generation-` streams, §4 step 5). A job is
 * submitted once per idempotency key; its upstream id is persisted the moment it is known; its
 * progress arrives by callback (verified here) or by polling. Adapters translate vendor errors
 * into the errors of ./generation-errors.ts at the boundary.
 */
export const GENERATION_PROVIDER = Symbol('GENERATION_PROVIDER');

export const mediaKinds = ['image', 'video', '3d', 'audio'] as const;
export type MediaKind = (typeof mediaKinds)[number];

/** What a media tool asks the upstream for, after its own schema accepted it. */
export interface GenerationParams {
  kind: MediaKind;
  /** The upstream model or operation, e.g. `image.generate`, `video.generate`. */
  operation: string;
  prompt: string;
  /** Per-kind options the tool's schema accepted (size, duration, voice, format...). */
  options: Readonly<Record<string, unknown>>;
  /** Reference media (image.edit, image-to-video) as bytes the caller read from the BlobStore. */
  references?: ReadonlyArray<{ contentType: string; bytes: Buffer }>;
}

/** Price of one submission, before it is made: integer minor units. */
export interface GenerationQuote {
  provider: string;
  units: number;
  unit: string;
  unitPriceMinor: number;
  amountMinor: number;
  currency: string;
}

export type UpstreamStatus = 'queued' | 'processing' | 'completed' | 'failed' | 'cancelled';

/** A result the upstream made: fetched lazily, because content URLs can expire and are re-fetched. */
export interface UpstreamResult {
  contentType: string;
  /** Downloads the bytes; retried by the caller on retriable errors without regenerating. */
  download(): Promise<Buffer>;
}

export interface UpstreamJobState {
  upstreamJobId: string;
  status: UpstreamStatus;
  /** 0..100 */
  progress: number;
  result?: UpstreamResult;
  failure?: { code: string; message: string };
}

/** A verified callback, as the adapter understood it. */
export interface UpstreamCallbackEvent {
  /** The upstream's id of this callback delivery: duplicates carry the same id. */
  eventId: string;
  upstreamJobId: string;
  status: UpstreamStatus;
  progress: number;
  /** The upstream's own sequence or timestamp for ordering, where it has one. */
  sequence?: number;
  failure?: { code: string; message: string };
}

export interface GenerationProvider {
  /** Stable name used in routes (`/callbacks/generation/:provider`) and stored on jobs. */
  readonly name: string;
  /** Whether the upstream calls back; without it jobs are polled with backoff. */
  readonly sendsCallbacks: boolean;
  /**
   * How far a callback's signed timestamp may be from now before verifyCallback refuses it as
   * stale: it bounds how long a replay can pass, so how long the service remembers deliveries.
   * Undefined for a provider that never calls back.
   */
  readonly callbackToleranceMs?: number;
  quote(params: GenerationParams): GenerationQuote;
  /**
   * Creates the upstream job. Throws GenerationOutcomeUnknownError when the request was sent
   * and no answer came (timeout, connection lost after sending, 5xx after sending); any other
   * GenerationProviderError proves no job was created.
   */
  submit(params: GenerationParams, idempotencyKey: string): Promise<{ upstreamJobId: string }>;
  poll(upstreamJobId: string): Promise<UpstreamJobState>;
  /** Throws CallbackRejectedError (a 4xx with its code) for anything it cannot trust. */
  verifyCallback(
    headers: Readonly<Record<string, string | string[] | undefined>>,
    rawBody: Buffer,
  ): UpstreamCallbackEvent;
  cancel?(upstreamJobId: string): Promise<void>;
}
