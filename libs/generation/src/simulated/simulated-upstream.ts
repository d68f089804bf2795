import { createHash, randomUUID } from 'node:crypto';
import { z } from 'zod';
import { systemClock, type Clock, type IdGenerator } from '@lomo/contracts';
import { silentLogger, type Logger } from '@lomo/observability';
import { mediaKinds, type UpstreamStatus } from '../provider';
import {
  SIM_EVENT_ID_HEADER,
  SIM_SIGNATURE_HEADER,
  SIM_TIMESTAMP_HEADER,
  simulatedCallbackSignature,
} from './callback-signing';
import { renderPromptGif, renderPromptGltf, renderPromptPng, renderPromptWav } from './media';
import { simulatedUnitNames, simulatedUnits } from './prices';
import {
  defaultSimulatedUpstreamConfig,
  noSimulatedFaults,
  simulatedUpstreamControlSchema,
  type SimulatedUpstreamConfig,
  type SimulatedUpstreamControl,
  type SimulatedUpstreamFaults,
} from './upstream-config';
import {
  emptySimulatedCounters,
  MemorySimulatedStateStore,
  type SimulatedCallbackBody,
  type SimulatedJobRecord,
  type SimulatedUpstreamCounters,
  type SimulatedUpstreamState,
  type SimulatedUpstreamStateStore,
} from './upstream-state';

/** A request as the upstream sees it, whether it came over a socket or in-process. */
export interface SimulatedRequest {
  method: string;
  /** Path with query string, e.g. `/v1/jobs?idempotencyKey=k`. */
  url: string;
  /** Lower-case names. */
  headers: Readonly<Record<string, string | undefined>>;
  body: Buffer;
}

export interface SimulatedReply {
  status: number;
  headers: Record<string, string>;
  body: Buffer;
}

/**
 * What the transport does with a request: answer it, answer it late or never (the job exists
 * already: timeoutAfterCreate), or behave as if the connection had been refused.
 */
export type SimulatedOutcome =
  | { kind: 'reply'; reply: SimulatedReply }
  | { kind: 'hang'; afterMs: number | null; reply: SimulatedReply }
  | { kind: 'refuse' };

/** One signed HTTP callback, ready to POST. */
export interface SimulatedCallbackDelivery {
  url: string;
  eventId: string;
  headers: Record<string, string>;
  /** The exact bytes the signature covers. */
  body: string;
}

export interface SimulatedUpstreamOptions {
  clock?: Clock;
  /** Uniform [0, 1): decides failures and shuffles; seed it for reproducible runs. */
  random?: () => number;
  ids?: IdGenerator;
  store?: SimulatedUpstreamStateStore;
  /** Hands a signed callback to the transport (HTTP POST, or a test's collector). */
  deliver?: (delivery: SimulatedCallbackDelivery) => void;
  logger?: Logger;
  /** Start configuration; POST /control changes it at run time. */
  start?: SimulatedUpstreamControl;
}

/** mulberry32: a tiny, well-mixed 32-bit PRNG; enough for fault injection, not for secrets. */
export function seededRandom(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** JSON with sorted keys, so the same request always hashes the same whatever its key order. */
function canonicalJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(',')}]`;
  if (value && typeof value === 'object') {
    const entries = Object.entries(value as Record<string, unknown>)
      .filter(([, v]) => v !== undefined)
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${canonicalJson(v)}`).join(',')}}`;
  }
  return JSON.stringify(value) ?? 'null';
}

const submitBodySchema = z
  .object({
    kind: z.enum(mediaKinds),
    operation: z.string().min(1).max(200),
    prompt: z.string().max(32_000),
    options: z.record(z.string(), z.unknown()).default({}),
    references: z
      .array(z.object({ contentType: z.string().min(1), bytesBase64: z.string() }).strict())
      .max(16)
      .optional(),
    callbackUrl: z.string().url().optional(),
  })
  .strict();
export type SimulatedSubmitBody = z.input<typeof submitBodySchema>;

const terminal: ReadonlySet<UpstreamStatus> = new Set(['completed', 'failed', 'cancelled']);

const contentTypes = {
  image: 'image/png',
  video: 'image/gif',
  '3d': 'model/gltf+json',
  audio: 'audio/wav',
} as const;

function json(status: number, value: unknown, headers: Record<string, string> = {}): SimulatedReply {
  return {
    status,
    headers: { 'content-type': 'application/json; charset=utf-8', ...headers },
    body: Buffer.from(JSON.stringify(value), 'utf8'),
  };
}

function problem(status: number, code: string, message: string, extra: Record<string, unknown> = {}): SimulatedReply {
  return json(status, { error: { code, message, ...extra } });
}

const reply = (r: SimulatedReply): SimulatedOutcome => ({ kind: 'reply', reply: r });

/**
 * The simulated media upstream: its jobs, their progress over time, its callbacks and its fault
 * switches. The HTTP server (simulated-upstream-server.ts) and the in-process test mode both
 * drive this one class through `handle`, so they cannot disagree.
 *
 * Time is never read from timers: a job's state is a function of its creation time, its latency
 * and the clock, advanced by `step()` (the server calls it on an interval, every request calls it
 * first). After a restart the jobs continue from the state file: one whose latency passed while
 * the upstream was down completes at the first step.
 */
export class SimulatedUpstream {
  private readonly clock: Clock;
  private readonly random: () => number;
  private readonly ids: IdGenerator;
  private readonly store: SimulatedUpstreamStateStore;
  private readonly deliver: (delivery: SimulatedCallbackDelivery) => void;
  private readonly logger: Logger;
  private readonly jobs = new Map<string, SimulatedJobRecord>();
  private readonly byKey = new Map<string, string>();
  private readonly active = new Set<string>();
  private counters: SimulatedUpstreamCounters;
  private configValue: SimulatedUpstreamConfig = { ...defaultSimulatedUpstreamConfig };
  private faultsValue: SimulatedUpstreamFaults = { ...noSimulatedFaults };

  constructor(options: SimulatedUpstreamOptions = {}) {
    this.clock = options.clock ?? systemClock;
    this.random = options.random ?? seededRandom(1);
    this.ids = options.ids ?? { uuid: randomUUID };
    this.store = options.store ?? new MemorySimulatedStateStore();
    this.deliver = options.deliver ?? (() => undefined);
    this.logger = options.logger ?? silentLogger;
    const state = this.store.load();
    this.counters = { ...emptySimulatedCounters(), ...state?.counters };
    for (const job of state?.jobs ?? []) {
      this.jobs.set(job.id, job);
      this.byKey.set(job.idempotencyKey, job.id);
      if (!terminal.has(job.status)) this.active.add(job.id);
    }
    if (options.start) this.control(options.start);
  }

  get config(): Readonly<SimulatedUpstreamConfig> {
    return this.configValue;
  }

  get faults(): Readonly<SimulatedUpstreamFaults> {
    return this.faultsValue;
  }

  /** Applies a POST /control body (already validated or not). */
  control(input: unknown): void {
    const patch = simulatedUpstreamControlSchema.parse(input);
    if (patch.resetFaults) this.faultsValue = { ...noSimulatedFaults };
    if (patch.resetCounters) {
      this.counters = emptySimulatedCounters();
      this.persist();
    }
    this.configValue = { ...this.configValue, ...patch.config };
    this.faultsValue = { ...this.faultsValue, ...patch.faults };
    if (patch.faults?.failNextSubmitWith !== undefined && patch.faults.failNextSubmitTimes === undefined) {
      // A new one-shot fault starts a fresh count, whatever was left of the previous one.
      this.faultsValue.failNextSubmitTimes = 1;
    }
    this.logger.info({ config: this.describeConfig(), faults: this.faultsValue }, 'simulated upstream configured');
  }

  /**
   * The HTTP server closes its listener for a 'refuse' fault instead of answering: it takes the
   * fault here (a later submit then goes through). The in-process mode leaves it to `handle`.
   */
  takeRefuseFault(): boolean {
    if (this.faultsValue.failNextSubmitWith !== 'refuse') return false;
    this.consumeSubmitFault();
    return true;
  }

  countersSnapshot(): SimulatedUpstreamCounters & { distinctJobs: number } {
    return { ...this.counters, distinctJobs: this.jobs.size };
  }

  job(id: string): Readonly<SimulatedJobRecord> | undefined {
    return this.jobs.get(id);
  }

  allJobs(): ReadonlyArray<Readonly<SimulatedJobRecord>> {
    return [...this.jobs.values()];
  }

  /** Moves every unfinished job to where the clock says it is, sending the callbacks that fall due. */
  step(): void {
    const now = this.clock.now().getTime();
    let changed = false;
    for (const id of [...this.active]) {
      const job = this.jobs.get(id)!;
      if (this.advance(job, now)) changed = true;
    }
    if (changed) this.persist();
  }

  async handle(request: SimulatedRequest): Promise<SimulatedOutcome> {
    this.step();
    const url = new URL(request.url, 'http://sim.invalid');
    const parts = url.pathname.split('/').filter(Boolean);
    const method = request.method.toUpperCase();
    if (parts[0] === 'healthz') return reply(json(200, { ok: true }));
    if (parts[0] === 'control') return reply(this.handleControl(method, parts, request));
    if (parts[0] !== 'v1' || parts[1] !== 'jobs') return reply(problem(404, 'not_found', 'No such endpoint'));
    if (this.configValue.apiKey && request.headers.authorization !== `Bearer ${this.configValue.apiKey}`) {
      return reply(problem(401, 'unauthorized', 'Missing or wrong API key'));
    }
    if (parts.length === 2 && method === 'POST') return this.submit(request);
    if (parts.length === 2 && method === 'GET') {
      const key = url.searchParams.get('idempotencyKey');
      const id = key === null ? undefined : this.byKey.get(key);
      if (!id) return reply(problem(404, 'job_not_found', 'No job for that idempotency key'));
      return reply(json(200, this.view(this.jobs.get(id)!)));
    }
    const job = parts[2] ? this.jobs.get(decodeURIComponent(parts[2])) : undefined;
    if (parts.length >= 3 && !job) return reply(problem(404, 'job_not_found', 'No such job'));
    if (job && parts.length === 3 && method === 'GET') {
      this.counters.pollRequests++;
      this.persist();
      return reply(json(200, this.view(job)));
    }
    if (job && parts.length === 4 && parts[3] === 'cancel' && method === 'POST') return reply(this.cancel(job));
    if (job && parts.length === 4 && parts[3] === 'content' && method === 'GET') return reply(this.content(job));
    return reply(problem(405, 'method_not_allowed', 'Method not allowed here'));
  }

  private handleControl(method: string, parts: string[], request: SimulatedRequest): SimulatedReply {
    if (parts.length === 2 && parts[1] === 'counters' && method === 'GET') return json(200, this.countersSnapshot());
    if (parts.length === 2 && parts[1] === 'jobs' && method === 'GET') {
      return json(
        200,
        this.allJobs().map((j) => this.view(j)),
      );
    }
    if (parts.length !== 1) return problem(404, 'not_found', 'No such control endpoint');
    if (method === 'POST') {
      let body: unknown;
      try {
        body = JSON.parse(request.body.toString('utf8') || '{}');
      } catch {
        return problem(400, 'invalid_json', 'The control body is not JSON');
      }
      const parsed = simulatedUpstreamControlSchema.safeParse(body);
      if (!parsed.success) return problem(400, 'invalid_control', z.prettifyError(parsed.error));
      this.control(parsed.data);
    } else if (method !== 'GET') {
      return problem(405, 'method_not_allowed', 'GET or POST /control');
    }
    return json(200, { config: this.describeConfig(), faults: this.faultsValue, counters: this.countersSnapshot() });
  }

  private describeConfig(): Record<string, unknown> {
    // Secrets are shown only as "set", so a control dump in a log leaks nothing.
    const { callbackSecret, apiKey, ...rest } = this.configValue;
    return { ...rest, callbackSecret: callbackSecret ? 'set' : undefined, apiKey: apiKey ? 'set' : undefined };
  }

  private consumeSubmitFault(): void {
    if (this.faultsValue.failNextSubmitTimes > 1) this.faultsValue.failNextSubmitTimes--;
    else this.faultsValue = { ...this.faultsValue, failNextSubmitWith: null, failNextSubmitTimes: 1 };
  }

  private submit(request: SimulatedRequest): SimulatedOutcome {
    const fault = this.faultsValue.failNextSubmitWith;
    if (fault === 'refuse') {
      // Refused before anything was sent: it never reached the upstream, so it is not counted.
      this.consumeSubmitFault();
      return { kind: 'refuse' };
    }
    this.counters.submitRequests++;
    this.persist();
    if (fault !== null) {
      this.consumeSubmitFault();
      this.logger.info({ status: fault }, 'simulated upstream failing a submit by fault');
      if (fault === 429) {
        return reply(
          json(
            429,
            { error: { code: 'rate_limited', message: 'Slow down' } },
            { 'retry-after': String(this.faultsValue.retryAfterSeconds) },
          ),
        );
      }
      const codes = {
        400: 'invalid_request',
        401: 'unauthorized',
        403: 'forbidden',
        500: 'internal',
        503: 'unavailable',
      };
      return reply(problem(fault, codes[fault], 'Failed by the failNextSubmitWith fault'));
    }
    const key = request.headers['idempotency-key'];
    if (!key || key.length > 255)
      return reply(problem(400, 'idempotency_key_required', 'Send an Idempotency-Key header of 1..255 characters'));
    let raw: unknown;
    try {
      raw = JSON.parse(request.body.toString('utf8'));
    } catch {
      return reply(problem(400, 'invalid_json', 'The body is not JSON'));
    }
    const parsed = submitBodySchema.safeParse(raw);
    if (!parsed.success) return reply(problem(400, 'invalid_request', z.prettifyError(parsed.error)));
    const body = parsed.data;
    const fingerprint = createHash('sha256')
      .update(canonicalJson({ ...body, callbackUrl: undefined }))
      .digest('hex');
    const existingId = this.byKey.get(key);
    if (existingId) {
      const existing = this.jobs.get(existingId)!;
      if (existing.fingerprint !== fingerprint) {
        return reply(
          problem(422, 'idempotency_key_reused', 'This idempotency key was used for another request', {
            jobId: existing.id,
          }),
        );
      }
      this.counters.idempotentReplays++;
      this.persist();
      return this.answerSubmit(json(200, this.view(existing), { 'idempotent-replayed': 'true' }));
    }
    let units: number;
    try {
      units = simulatedUnits(body.kind, body.options);
    } catch (error) {
      return reply(problem(400, 'invalid_options', (error as Error).message));
    }
    const now = this.clock.now().getTime();
    const cfg = this.configValue;
    const job: SimulatedJobRecord = {
      id: `simjob_${this.ids.uuid()}`,
      idempotencyKey: key,
      fingerprint,
      kind: body.kind,
      operation: body.operation,
      prompt: body.prompt,
      options: body.options,
      referenceCount: body.references?.length ?? 0,
      units,
      unit: simulatedUnitNames[body.kind],
      amountMinor: units * cfg.prices[body.kind],
      currency: cfg.currency,
      callbackUrl: body.callbackUrl,
      createdAtMs: now,
      updatedAtMs: now,
      latencyMs: cfg.latencyMs,
      ticks: cfg.progressTicks,
      willFail: this.random() < cfg.failureRate,
      status: 'queued',
      progress: 0,
      emittedTicks: 0,
      held: [],
    };
    this.jobs.set(job.id, job);
    this.byKey.set(key, job.id);
    this.active.add(job.id);
    // On disk before the answer: a restart right after it still knows the job.
    this.persist();
    this.logger.info(
      { jobId: job.id, kind: job.kind, idempotencyKey: key, willFail: job.willFail },
      'simulated job created',
    );
    // A zero latency completes at once; the step sends its callbacks after this answer is built.
    this.step();
    return this.answerSubmit(json(201, this.view(job)));
  }

  /** timeoutAfterCreate applies to replays too: the client still cannot learn the job's id. */
  private answerSubmit(r: SimulatedReply): SimulatedOutcome {
    if (!this.faultsValue.timeoutAfterCreate) return reply(r);
    this.logger.info(
      { afterMs: this.faultsValue.timeoutAfterCreateMs },
      'simulated upstream withholding a submit answer',
    );
    return { kind: 'hang', afterMs: this.faultsValue.timeoutAfterCreateMs, reply: r };
  }

  private cancel(job: SimulatedJobRecord): SimulatedReply {
    this.counters.cancelRequests++;
    // Cancelling a finished job changes nothing: cancel is idempotent and never moves a job back.
    if (!terminal.has(job.status)) {
      const now = this.clock.now().getTime();
      job.status = 'cancelled';
      job.updatedAtMs = now;
      this.active.delete(job.id);
      this.emit(job, [this.event(job, 'job.cancelled', job.ticks + 1, now)]);
    }
    this.persist();
    return json(200, this.view(job));
  }

  private content(job: SimulatedJobRecord): SimulatedReply {
    this.counters.downloadRequests++;
    this.persist();
    const fault = this.faultsValue.failNextDownloadWith;
    if (fault !== null) {
      this.faultsValue = { ...this.faultsValue, failNextDownloadWith: null };
      return problem(fault, fault === 404 ? 'content_expired' : 'internal', 'Failed by the failNextDownloadWith fault');
    }
    if (job.status !== 'completed') return problem(409, 'not_ready', `The job is ${job.status}`);
    return { status: 200, headers: { 'content-type': contentTypes[job.kind] }, body: this.render(job) };
  }

  /** Content is rendered from the job on each download, so the state file stays small. */
  private render(job: SimulatedJobRecord): Buffer {
    const o = job.options;
    switch (job.kind) {
      case 'image': {
        const size = typeof o.size === 'string' ? /^(\d+)x(\d+)$/.exec(o.size) : null;
        const clamp = (n: number) => Math.min(512, Math.max(8, n));
        const width = clamp(size ? Number(size[1]) : typeof o.width === 'number' ? o.width : 64);
        const height = clamp(size ? Number(size[2]) : typeof o.height === 'number' ? o.height : 64);
        return renderPromptPng(job.prompt, Math.round(width), Math.round(height));
      }
      case 'video':
        return renderPromptGif(job.prompt, Math.min(12, Math.max(2, job.units * 2)));
      case '3d':
        return renderPromptGltf(job.prompt, o.shape === 'tetrahedron' ? 'tetrahedron' : 'cube');
      case 'audio':
        // Billed for every second; the file is capped so a long request stays a small file.
        return renderPromptWav(job.prompt, Math.min(job.units, 10));
    }
  }

  private view(job: Readonly<SimulatedJobRecord>): Record<string, unknown> {
    return {
      id: job.id,
      idempotencyKey: job.idempotencyKey,
      kind: job.kind,
      operation: job.operation,
      status: job.status,
      progress: job.progress,
      sequence: job.status === 'queued' ? 0 : terminal.has(job.status) ? job.ticks + 1 : job.emittedTicks,
      units: job.units,
      unit: job.unit,
      amountMinor: job.amountMinor,
      currency: job.currency,
      createdAt: new Date(job.createdAtMs).toISOString(),
      updatedAt: new Date(job.updatedAtMs).toISOString(),
      failure: job.failure,
      result:
        job.status === 'completed'
          ? { contentType: contentTypes[job.kind], url: `/v1/jobs/${encodeURIComponent(job.id)}/content` }
          : undefined,
    };
  }

  /** Returns whether the job changed. */
  private advance(job: SimulatedJobRecord, now: number): boolean {
    const elapsed = now - job.createdAtMs;
    const done = elapsed >= job.latencyMs;
    // Ticks are evenly spaced: tick k falls at k/(ticks+1) of the latency, the terminal at its end.
    const dueTicks = done
      ? job.ticks
      : Math.min(job.ticks, Math.floor((elapsed * (job.ticks + 1)) / Math.max(1, job.latencyMs)));
    const events: SimulatedCallbackBody[] = [];
    while (job.emittedTicks < dueTicks) {
      job.emittedTicks++;
      job.status = 'processing';
      job.progress = Math.round((job.emittedTicks * 100) / (job.ticks + 1));
      events.push(this.event(job, 'job.progress', job.emittedTicks, now));
    }
    if (done) {
      if (job.willFail) {
        job.status = 'failed';
        job.failure = { code: 'SIMULATED_FAILURE', message: 'The simulated upstream failed this job (failureRate)' };
        events.push(this.event(job, 'job.failed', job.ticks + 1, now));
      } else {
        job.status = 'completed';
        job.progress = 100;
        events.push(this.event(job, 'job.completed', job.ticks + 1, now));
      }
      this.active.delete(job.id);
      this.logger.info({ jobId: job.id, status: job.status }, 'simulated job finished');
    }
    if (events.length === 0) return false;
    job.updatedAtMs = now;
    this.emit(job, events);
    return true;
  }

  private event(
    job: SimulatedJobRecord,
    type: SimulatedCallbackBody['type'],
    sequence: number,
    now: number,
  ): SimulatedCallbackBody {
    return {
      eventId: `${job.id}.${sequence}`,
      type,
      jobId: job.id,
      status: job.status,
      progress: job.progress,
      sequence,
      occurredAt: new Date(now).toISOString(),
      failure: job.failure,
      result:
        type === 'job.completed'
          ? { contentType: contentTypes[job.kind], url: `/v1/jobs/${encodeURIComponent(job.id)}/content` }
          : undefined,
    };
  }

  private emit(job: SimulatedJobRecord, events: SimulatedCallbackBody[]): void {
    const ordered: SimulatedCallbackBody[] = [];
    for (const event of events) {
      if (event.type === 'job.progress' && this.faultsValue.outOfOrderProgress) {
        job.held.push(event);
      } else if (event.type !== 'job.progress' && job.held.length > 0) {
        const held = this.shuffle(job.held);
        job.held = [];
        // One progress event goes after the terminal one: the late 'processing' a receiver must ignore.
        const late = held.pop()!;
        ordered.push(...held, event, late);
      } else {
        ordered.push(event);
      }
    }
    for (const event of ordered) this.send(job, event);
  }

  private shuffle<T>(items: readonly T[]): T[] {
    const out = [...items];
    for (let i = out.length - 1; i > 0; i--) {
      const j = Math.floor(this.random() * (i + 1));
      [out[i], out[j]] = [out[j], out[i]];
    }
    // "Out of order" must hold on every run: a shuffle that happened to keep the order is reversed.
    if (out.length > 1 && out.every((x, i) => x === items[i])) out.reverse();
    return out;
  }

  private send(job: SimulatedJobRecord, event: SimulatedCallbackBody): void {
    this.counters.callbacksEmitted++;
    const url = job.callbackUrl ?? this.configValue.callbackUrl;
    const secret = this.configValue.callbackSecret;
    if (this.faultsValue.lostCallbacks || !url || !secret) {
      this.counters.callbacksLost++;
      this.logger.debug(
        {
          jobId: job.id,
          eventId: event.eventId,
          reason: this.faultsValue.lostCallbacks ? 'lostCallbacks' : 'no callback target',
        },
        'simulated callback not sent',
      );
      return;
    }
    const body = JSON.stringify(event);
    const timestamp = Math.floor(this.clock.now().getTime() / 1000);
    const delivery: SimulatedCallbackDelivery = {
      url,
      eventId: event.eventId,
      body,
      headers: {
        'content-type': 'application/json',
        [SIM_EVENT_ID_HEADER]: event.eventId,
        [SIM_TIMESTAMP_HEADER]: String(timestamp),
        [SIM_SIGNATURE_HEADER]: simulatedCallbackSignature(secret, event.eventId, timestamp, body),
      },
    };
    const times = this.faultsValue.duplicateCallbacks ? 2 : 1;
    for (let i = 0; i < times; i++) {
      this.counters.callbacksSent++;
      this.deliver(delivery);
    }
  }

  private persist(): void {
    const state: SimulatedUpstreamState = { version: 1, jobs: [...this.jobs.values()], counters: this.counters };
    this.store.save(state);
  }
}
