import type { EventEnvelope } from '@lomo/contracts';
import type { Logger } from '@lomo/observability';
import type { StoredDocument } from '@lomo/read-models';
import { backoffDelay, NudgeableWait } from '@lomo/resilience';
import { updateDocument } from '../update-document';
import { EventSelection } from '../webhooks/event-selection';
import { sealEntries } from '../webhooks/webhook-secrets';
import {
  Collections,
  type CursorDocument,
  type DeadLetterDocument,
  type StreamDocument,
  type WebhookDocument,
} from '../webhooks/webhook-documents';
import { settleDeadLetter } from './dead-letter-records';
import type { RunnerDeps, StreamTurnContext } from './runner-context';
import { isReady, observe, redeliverFrom, skipTo } from './stream-progress';
import { StreamStates } from './stream-states';
import { runStreamTurn } from './stream-turn';
import { WebhookLease } from './webhook-lease';

const MAX_SCAN_BACKOFF_MS = 30_000;
/** A failed turn (store unavailable) waits this long, so a broken stream cannot spin. */
const TURN_ERROR_PAUSE_MS = 1_000;

/**
 * Delivers one webhook while holding its lease. A scan reads the store from the webhook's cursor
 * and records, per stream, the highest selected revision (durably, before the cursor moves on);
 * stream turns then deliver each stream from its last done revision, a few streams at a time.
 */
export class WebhookRunner implements StreamTurnContext {
  readonly states: StreamStates;
  readonly log: Logger;
  private current: WebhookDocument;
  private currentSelection: EventSelection;
  private cursor: CursorDocument | undefined;
  private readonly lease: WebhookLease;
  private readonly inFlight = new Map<string, Promise<void>>();
  private stopping = false;
  private haltReason: string | undefined;
  private scanLoop: Promise<void> | undefined;
  private readonly waits = new NudgeableWait();
  private retryTimer: NodeJS.Timeout | undefined;
  private renewTimer: NodeJS.Timeout | undefined;
  private lastRenewal = 0;

  constructor(
    readonly deps: RunnerDeps,
    webhook: WebhookDocument,
    /** Asks the engine to reconcile now: the runner stopped on its own or saw its webhook change. */
    private readonly nudgeEngine: () => void,
  ) {
    this.current = webhook;
    this.currentSelection = new EventSelection(webhook.workspaceId, webhook.eventTypes, webhook.registeredBy ?? null);
    this.states = new StreamStates(deps.documents, webhook._id);
    this.lease = new WebhookLease(deps.documents, webhook._id, deps.owner, deps.settings.leaseMs, deps.clock);
    this.log = deps.logger.child({
      component: 'webhook-runner',
      webhookId: webhook._id,
      workspaceId: webhook.workspaceId,
    });
  }

  get webhook(): WebhookDocument {
    return this.current;
  }

  get selection(): EventSelection {
    return this.currentSelection;
  }

  /** The replay request this runner's cursor reflects. */
  get replayId(): string | null {
    return this.cursor?.replayId ?? null;
  }

  get halted(): boolean {
    return this.haltReason !== undefined;
  }

  isStopping(): boolean {
    return this.stopping;
  }

  /** False when another instance holds the webhook. */
  async start(): Promise<boolean> {
    if (!(await this.lease.acquire())) return false;
    this.lastRenewal = Date.now();
    try {
      this.cursor = await this.loadCursor();
      await this.states.load();
    } catch (error) {
      await this.lease.release().catch(() => undefined);
      throw error;
    }
    this.renewTimer = setInterval(
      () => void this.renewLease(),
      Math.max(100, Math.floor(this.deps.settings.leaseMs / 3)),
    );
    this.renewTimer.unref();
    this.scanLoop = this.scan();
    this.pump();
    this.log.info(
      { cursor: this.cursor.position, epoch: this.cursor.epoch, pendingStreams: this.states.size },
      'webhook runner started',
    );
    return true;
  }

  update(webhook: WebhookDocument): void {
    this.current = webhook;
  }

  async freshWebhook(): Promise<WebhookDocument | undefined> {
    const stored = await this.deps.documents.get<WebhookDocument>(Collections.webhooks, this.current._id);
    if (stored === undefined || stored.status !== 'active') {
      this.halt('webhook no longer active');
      return undefined;
    }
    this.current = stored;
    return stored;
  }

  nudge(): void {
    this.waits.nudge();
  }

  /** Waits for the requests in flight (bounded by their timeout) and saves what they changed. */
  async stop(): Promise<void> {
    this.stopping = true;
    this.nudge();
    clearTimeout(this.retryTimer);
    clearInterval(this.renewTimer);
    await this.scanLoop;
    await Promise.allSettled([...this.inFlight.values()]);
    await this.states.flushAll();
    await this.lease
      .release()
      .catch((error: unknown) => this.log.warn({ error: String(error) }, 'lease release failed'));
    this.log.info({ reason: this.haltReason ?? 'stopped' }, 'webhook runner stopped');
  }

  async disable(reason: string): Promise<void> {
    await updateDocument<WebhookDocument>(this.deps.documents, Collections.webhooks, this.current._id, (w) =>
      w.status === 'active'
        ? {
            ...w,
            // Every write seals plain secrets left by a document stored before encryption.
            secrets: sealEntries(this.deps.secretBox, w._id, w.secrets),
            status: 'disabled',
            disabledReason: reason,
            updatedAt: this.deps.clock.now().toISOString(),
          }
        : undefined,
    );
    this.halt(reason);
  }

  /** A redeliver or skip request from the service, or a redelivery to confirm after a restart. */
  async handleDeadLetter(dl: StoredDocument<DeadLetterDocument>): Promise<void> {
    if (this.stopping || this.inFlight.has(dl.streamId)) return; // the next reconcile brings it again
    const now = this.deps.clock.now();
    const state = this.states.get(dl.streamId);
    if (dl.status === 'redelivery_requested') {
      if (state !== undefined && state.doneRevision >= dl.revision) {
        // Delivered since (a replay went past it): nothing is left to redeliver.
        await settleDeadLetter(this.deps.documents, dl._id, 'redelivered', now);
        return;
      }
      const base = state ?? this.orphanState(dl);
      this.states.set(redeliverFrom(base, dl._id, dl.revision));
      await this.states.persist(dl.streamId);
      await settleDeadLetter(this.deps.documents, dl._id, 'redelivering', now);
      this.log.info({ deadLetterId: dl._id, streamId: dl.streamId, eventId: dl.eventId }, 'redelivering dead letter');
    } else if (dl.status === 'skip_requested') {
      if (state !== undefined && state.doneRevision < dl.revision) {
        this.states.set(skipTo(state, dl._id, dl.revision));
        await this.states.persist(dl.streamId);
      }
      await settleDeadLetter(this.deps.documents, dl._id, 'skipped', now);
      this.log.info(
        { deadLetterId: dl._id, streamId: dl.streamId, eventId: dl.eventId },
        'dead letter skipped; its stream goes on',
      );
    } else if (dl.status === 'redelivering') {
      // A crash between the delivery and this status: the stream state says it went through.
      const passed =
        state === undefined || (state.redelivering?.deadLetterId !== dl._id && state.doneRevision >= dl.revision);
      if (passed) await settleDeadLetter(this.deps.documents, dl._id, 'redelivered', now);
      return;
    }
    this.pump();
  }

  private halt(reason: string): void {
    if (this.haltReason !== undefined) return;
    this.haltReason = reason;
    this.stopping = true;
    this.nudge();
    clearTimeout(this.retryTimer);
    this.nudgeEngine();
  }

  private async loadCursor(): Promise<CursorDocument> {
    const id = this.current._id;
    const stored = await this.deps.documents.get<CursorDocument>(Collections.cursors, id);
    let cursor: CursorDocument = stored
      ? { _id: id, webhookId: id, position: stored.position, epoch: stored.epoch, replayId: stored.replayId }
      : { _id: id, webhookId: id, position: this.current.startPosition, epoch: 0, replayId: null };
    const replay = this.current.replay;
    if (replay !== null && replay.id !== cursor.replayId) {
      cursor = {
        ...cursor,
        position: replay.fromCursor === 'start' ? null : replay.fromCursor,
        epoch: cursor.epoch + 1,
        replayId: replay.id,
      };
      this.log.info({ fromCursor: replay.fromCursor, epoch: cursor.epoch }, 'webhook replay applied');
    }
    if (stored === undefined || cursor.replayId !== stored.replayId)
      await this.deps.documents.upsert(Collections.cursors, cursor);
    return cursor;
  }

  private async scan(): Promise<void> {
    let failures = 0;
    while (!this.stopping) {
      this.waits.beginRound();
      try {
        const read = await this.scanBatch();
        failures = 0;
        if (read < this.deps.settings.batchSize) await this.idle(this.deps.settings.pollIntervalMs);
      } catch (error) {
        failures += 1;
        const delayMs = backoffDelay(failures, {
          initialDelayMs: this.deps.settings.pollIntervalMs,
          maxDelayMs: MAX_SCAN_BACKOFF_MS,
        });
        this.log.warn({ error: describe(error), failures, delayMs }, 'webhook scan failed; retrying');
        await this.idle(delayMs);
      }
    }
  }

  /** Every selected stream's new target is stored before the cursor passes its events. */
  private async scanBatch(): Promise<number> {
    const cursor = this.cursor;
    if (cursor === undefined) return 0;
    const batch = await this.deps.events.readAll({
      fromPosition: cursor.position ?? 'start',
      filter: this.selection.storeFilter(),
      maxCount: this.deps.settings.batchSize,
    });
    if (batch.length === 0) return 0;
    const selected = batch.filter((e) => this.selection.matches(e));
    const stored = await this.states.fetchStored(selected.map(streamOf));
    const touched = new Set<string>();
    const superseded: string[] = [];
    for (const event of selected) {
      const streamId = streamOf(event);
      const observed = observe(
        this.states.get(streamId) ?? stored.get(streamId),
        this.current._id,
        event.metadata,
        cursor.epoch,
      );
      stored.delete(streamId);
      this.states.set(observed.state);
      touched.add(streamId);
      if (observed.superseded !== null) superseded.push(observed.superseded);
    }
    await Promise.all([...touched].map((streamId) => this.states.persist(streamId)));
    const now = this.deps.clock.now();
    for (const id of superseded) await settleDeadLetter(this.deps.documents, id, 'replayed', now);
    const next: CursorDocument = { ...cursor, position: batch[batch.length - 1].metadata.globalPosition };
    await this.deps.documents.upsert(Collections.cursors, next);
    this.cursor = next;
    this.pump();
    return batch.length;
  }

  /** Starts turns for ready streams up to the in-flight bound; arms a timer for the next retry. */
  private pump(): void {
    if (this.stopping) return;
    clearTimeout(this.retryTimer);
    const now = this.deps.clock.now();
    const capacity = this.deps.settings.streamsInFlight - this.inFlight.size;
    const ready: string[] = [];
    let nextRetry: number | undefined;
    for (const state of this.states.all()) {
      if (ready.length >= capacity) break;
      if (this.inFlight.has(state.streamId)) continue;
      if (isReady(state, now)) ready.push(state.streamId);
      else if (state.blocked === null && state.doneRevision < state.targetRevision && state.notBefore !== null) {
        nextRetry = Math.min(nextRetry ?? Number.POSITIVE_INFINITY, Date.parse(state.notBefore));
      }
    }
    for (const streamId of ready) this.startTurn(streamId);
    if (ready.length === 0 && nextRetry !== undefined) {
      this.retryTimer = setTimeout(() => this.pump(), Math.max(0, nextRetry - now.getTime()));
      this.retryTimer.unref();
    }
  }

  private startTurn(streamId: string): void {
    const turn = runStreamTurn(this, streamId)
      .catch((error: unknown) => {
        this.log.warn({ streamId, error: describe(error) }, 'stream turn failed');
        const state = this.states.get(streamId);
        const pauseUntil = new Date(this.deps.clock.now().getTime() + TURN_ERROR_PAUSE_MS).toISOString();
        if (state !== undefined) this.states.set({ ...state, notBefore: pauseUntil });
      })
      .finally(() => {
        this.inFlight.delete(streamId);
        this.states.requeue(streamId);
        this.pump();
      });
    this.inFlight.set(streamId, turn);
  }

  private async renewLease(): Promise<void> {
    if (this.stopping) return;
    try {
      if (await this.lease.renew()) this.lastRenewal = Date.now();
      else this.halt('lease taken over by another notifier');
    } catch (error) {
      this.log.warn({ error: describe(error) }, 'lease renewal failed');
      if (Date.now() - this.lastRenewal >= this.deps.settings.leaseMs) this.halt('lease expired');
    }
  }

  /** A poll wait that an append nudge, a stop or a state change ends early. */
  private idle(ms: number): Promise<void> {
    return this.stopping ? Promise.resolve() : this.waits.wait(ms);
  }

  /** A dead letter whose stream has no state here (lost or never stored): deliver just its event. */
  private orphanState(dl: DeadLetterDocument): StreamDocument {
    return observe(undefined, this.current._id, dl, this.cursor?.epoch ?? 0).state;
  }
}

const streamOf = (event: EventEnvelope): string => event.metadata.streamId;

const describe = (error: unknown): string =>
  error instanceof Error ? `${error.name}: ${error.message}` : String(error);
