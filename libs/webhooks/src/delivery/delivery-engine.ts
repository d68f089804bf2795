import type { Logger } from '@lomo/observability';
import type { Subscription } from '@lomo/eventstore';
import type { DocumentInput, Filter, StoredDocument } from '@lomo/read-models';
import { backoffDelay, NudgeableWait } from '@lomo/resilience';
import {
  Collections,
  notifierIndexes,
  type DeadLetterDocument,
  type WebhookDocument,
} from '../webhooks/webhook-documents';
import type { RunnerDeps } from './runner-context';
import { WebhookLease } from './webhook-lease';
import { WebhookRunner } from './webhook-runner';

const PAGE = 500;
const MAX_RECONCILE_BACKOFF_MS = 30_000;

export interface DeliveryEngineOptions extends RunnerDeps {
  reconcileIntervalMs: number;
}

/**
 * Runs one WebhookRunner per active webhook whose lease this instance holds. Registrations,
 * deletions, replays and dead-letter requests are documents written by the service (in this
 * process or the API's); the engine reconciles with them every interval, or at once when nudged.
 * Store appends made through this process wake the runners without waiting for their poll.
 */
export class DeliveryEngine {
  private readonly runners = new Map<string, WebhookRunner>();
  private readonly log: Logger;
  private loop: Promise<void> | undefined;
  private appends: Subscription | undefined;
  private stopping = false;
  private readonly waits = new NudgeableWait();

  constructor(private readonly options: DeliveryEngineOptions) {
    this.log = options.logger.child({ component: 'delivery-engine' });
  }

  async start(): Promise<void> {
    for (const [collection, indexes] of notifierIndexes)
      await this.options.documents.ensureIndexes(collection, indexes);
    this.appends = this.options.events.subscribeToAll({ fromPosition: 'end' }, () => this.wakeRunners());
    this.loop = this.run();
    this.log.info({ owner: this.options.owner }, 'delivery engine started');
  }

  /** Reconcile now: the service changed something. */
  nudge(): void {
    this.waits.nudge();
  }

  async stop(): Promise<void> {
    this.stopping = true;
    this.nudge();
    await this.appends?.stop();
    await this.loop;
    await Promise.allSettled([...this.runners.values()].map((r) => r.stop()));
    this.runners.clear();
    this.log.info({}, 'delivery engine stopped');
  }

  /** For tests and health: the webhooks this instance delivers. */
  activeWebhookIds(): string[] {
    return [...this.runners.keys()];
  }

  private async run(): Promise<void> {
    let failures = 0;
    while (!this.stopping) {
      this.waits.beginRound();
      let waitMs = this.options.reconcileIntervalMs;
      try {
        await this.reconcile();
        failures = 0;
      } catch (error) {
        failures += 1;
        waitMs = backoffDelay(failures, { initialDelayMs: waitMs, maxDelayMs: MAX_RECONCILE_BACKOFF_MS });
        this.log.warn(
          { error: error instanceof Error ? error.message : String(error), failures, waitMs },
          'reconcile failed',
        );
      }
      await this.idle(waitMs);
    }
  }

  private async reconcile(): Promise<void> {
    const seen = new Set<string>();
    for await (const webhook of this.pages<WebhookDocument>(Collections.webhooks, {})) {
      if (this.stopping) return;
      seen.add(webhook._id);
      await this.reconcileWebhook(webhook);
    }
    for (const [id, runner] of this.runners) {
      if (!seen.has(id)) await this.retire(id, runner);
    }
    const requests = { status: { $in: ['redelivery_requested', 'skip_requested', 'redelivering'] } };
    for await (const dl of this.pages<DeadLetterDocument>(Collections.deadLetters, requests)) {
      if (this.stopping) return;
      await this.runners.get(dl.webhookId)?.handleDeadLetter(dl);
    }
  }

  private async reconcileWebhook(webhook: StoredDocument<WebhookDocument>): Promise<void> {
    let runner = this.runners.get(webhook._id);
    const replayPending = webhook.replay !== null && webhook.replay.id !== runner?.replayId;
    if (runner !== undefined && (runner.halted || webhook.status !== 'active' || replayPending)) {
      // A replay restarts the runner: it reloads the cursor and applies the request once.
      await this.retire(webhook._id, runner);
      runner = undefined;
    }
    if (webhook.status === 'deleted') return this.purge(webhook);
    if (webhook.status !== 'active') return;
    if (runner !== undefined) return runner.update(webhook);
    const fresh = new WebhookRunner(this.options, webhook, () => this.nudge());
    if (await fresh.start()) this.runners.set(webhook._id, fresh);
  }

  private async retire(id: string, runner: WebhookRunner): Promise<void> {
    this.runners.delete(id);
    await runner.stop();
  }

  /** Removes a deleted webhook's state, under its lease so no runner elsewhere writes meanwhile. */
  private async purge(webhook: StoredDocument<WebhookDocument>): Promise<void> {
    const { documents, clock, owner, settings } = this.options;
    const lease = new WebhookLease(documents, webhook._id, owner, settings.leaseMs, clock);
    if (!(await lease.acquire())) return;
    for (const collection of [Collections.streams, Collections.deadLetters]) {
      const ids: string[] = [];
      for await (const doc of this.pages<DocumentInput>(collection, { webhookId: webhook._id })) ids.push(doc._id);
      for (let i = 0; i < ids.length; i += PAGE) {
        await documents.bulkWrite(
          collection,
          ids.slice(i, i + PAGE).map((id) => ({ type: 'delete' as const, id })),
        );
      }
    }
    await documents.delete(Collections.cursors, webhook._id);
    await documents.delete(Collections.webhooks, webhook._id);
    await lease.release();
    this.log.info({ webhookId: webhook._id, workspaceId: webhook.workspaceId }, 'deleted webhook purged');
  }

  private async *pages<T extends DocumentInput>(collection: string, filter: Filter): AsyncGenerator<StoredDocument<T>> {
    let after: string | undefined;
    do {
      const page = await this.options.documents.find<T>(collection, { filter, limit: PAGE, after });
      yield* page.items;
      after = page.hasMore ? page.endCursor : undefined;
    } while (after !== undefined);
  }

  private wakeRunners(): void {
    for (const runner of this.runners.values()) runner.nudge();
  }

  private idle(ms: number): Promise<void> {
    return this.stopping ? Promise.resolve() : this.waits.wait(ms, { unref: true });
  }
}
