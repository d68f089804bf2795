import { ValidationError, type Clock, type IdGenerator } from '@lomo/contracts';
import type { EventStore } from '@lomo/eventstore';
import type { Logger } from '@lomo/observability';
import { InvalidQueryError, type DocumentStore, type StoredDocument } from '@lomo/read-models';
import type { NotifierSettings } from '../notifier-settings';
import { updateDocument } from '../update-document';
import {
  Collections,
  type DeadLetterDocument,
  type DeadLetterStatus,
  type WebhookDocument,
  type WebhookRegistrant,
} from './webhook-documents';
import type { HostResolver } from './host-resolver.port';
import {
  DeadLetterNotFoundError,
  DeadLetterNotOpenError,
  WebhookLimitReachedError,
  WebhookNotFoundError,
  WebhookTargetForbiddenError,
} from './webhook-errors';
import {
  cursorSchema,
  idSchema,
  pageSchema,
  parseInput,
  parseWorkspaceId,
  registerInputSchema,
  type PageInput,
  type RegisterWebhookInput,
} from './webhook-input';
import type { SecretBox } from './secret-box';
import { generateSecret, rotate, sealEntries } from './webhook-secrets';
import { vetTarget } from './webhook-target';
import {
  deadLetterView,
  webhookView,
  type DeadLetterPage,
  type DeadLetterView,
  type WebhookView,
  type WorkspaceDeadLetterPage,
} from './webhook-views';

export interface WebhookServiceDeps {
  documents: DocumentStore;
  events: Pick<EventStore, 'headPosition' | 'readAll'>;
  clock: Clock;
  ids: IdGenerator;
  settings: Pick<NotifierSettings, 'production' | 'httpAllowlist' | 'secretGraceSeconds' | 'maxWebhooksPerWorkspace'>;
  logger: Logger;
  /** Seals signing secrets before they are stored (LOMO_SECRETS_KEY). */
  secretBox: SecretBox;
  /** Resolves webhook hosts so production can refuse names that point inside (webhook-target.ts). */
  resolver: HostResolver;
  /** Called after a change the delivery engine should act on now (same process); it also polls. */
  onChange?: () => void;
}

/**
 * A secret's value appears only here, once: at registration and at rotation. It is stored
 * encrypted (see SecretBox) and never logged.
 */
export interface WebhookWithSecret {
  webhook: WebhookView;
  secret: string;
}

export interface RotatedSecret extends WebhookWithSecret {
  /** When the secrets that were active before the rotation stop signing deliveries. */
  previousSecretsExpireAt: string | null;
}

const listed = { $in: ['active', 'disabled'] };

/**
 * Webhook registrations and dead letters of one workspace. Every call takes the caller's
 * workspace; another workspace's ids answer exactly like absent ones. Writes only documents: the
 * delivery engine (this process or another) picks the changes up.
 */
export class WebhookService {
  private readonly log: Logger;

  constructor(private readonly deps: WebhookServiceDeps) {
    this.log = deps.logger.child({ component: 'webhook-service' });
  }

  /** `registrant`: the caller registering it; its deliveries pass the visibility policy for that caller. */
  async register(
    workspaceId: string,
    input: RegisterWebhookInput,
    registrant?: WebhookRegistrant,
  ): Promise<WebhookWithSecret> {
    const ws = parseWorkspaceId(workspaceId);
    const parsed = parseInput(registerInputSchema(this.deps.settings), input, 'input');
    const { documents, settings } = this.deps;
    await this.assertTarget(ws, parsed.url);
    // Two racing registrations may pass together; the bound is against accumulation, not exact.
    const existing = await documents.count(Collections.webhooks, { workspaceId: ws, status: listed });
    if (existing >= settings.maxWebhooksPerWorkspace) {
      throw new WebhookLimitReachedError(ws, settings.maxWebhooksPerWorkspace);
    }
    const now = this.now();
    const secret = parsed.secret ?? generateSecret();
    const webhookId = this.deps.ids.uuid();
    const entry = { id: this.deps.ids.uuid(), secret, createdAt: now.toISOString(), expiresAt: null };
    const doc: WebhookDocument = {
      _id: webhookId,
      workspaceId: ws,
      registeredBy: registrant === undefined ? null : { ...registrant },
      url: parsed.url,
      eventTypes: parsed.eventTypes,
      description: parsed.description ?? null,
      status: 'active',
      disabledReason: null,
      secrets: sealEntries(this.deps.secretBox, webhookId, [entry]),
      // Only events appended after the registration are delivered; earlier ones through replay.
      startPosition: (await this.deps.events.headPosition()) ?? null,
      replay: null,
      createdAt: now.toISOString(),
      updatedAt: now.toISOString(),
    };
    await documents.upsert(Collections.webhooks, doc, { expectedVersion: 0 });
    this.log.info({ workspaceId: ws, webhookId: doc._id, eventTypes: doc.eventTypes }, 'webhook registered');
    this.changed();
    return { webhook: webhookView(doc, now), secret };
  }

  async list(workspaceId: string): Promise<WebhookView[]> {
    const ws = parseWorkspaceId(workspaceId);
    const now = this.now();
    const views: WebhookView[] = [];
    let after: string | undefined;
    do {
      const page = await this.deps.documents.find<WebhookDocument>(Collections.webhooks, {
        filter: { workspaceId: ws, status: listed },
        sort: [['createdAt', 1]],
        limit: 100,
        after,
      });
      views.push(...page.items.map((doc) => webhookView(doc, now)));
      after = page.hasMore ? page.endCursor : undefined;
    } while (after !== undefined);
    return views;
  }

  async get(workspaceId: string, id: string): Promise<WebhookView> {
    return webhookView(await this.owned(workspaceId, id), this.now());
  }

  /** The engine stops delivering, then removes the webhook's state and dead letters. */
  async delete(workspaceId: string, id: string): Promise<void> {
    const doc = await this.owned(workspaceId, id);
    await this.updateWebhook(doc, (current) => ({ ...current, status: 'deleted' }));
    this.log.info({ workspaceId: doc.workspaceId, webhookId: doc._id }, 'webhook deleted');
    this.changed();
  }

  /** Re-enables a webhook a 410 Gone (or an operator) disabled; delivery resumes where it stopped. */
  async setEnabled(workspaceId: string, id: string, enabled: boolean): Promise<WebhookView> {
    const doc = await this.owned(workspaceId, id);
    const updated = await this.updateWebhook(doc, (current) => ({
      ...current,
      status: enabled ? 'active' : 'disabled',
      disabledReason: enabled ? null : 'disabled by a user',
    }));
    this.changed();
    return webhookView(updated, this.now());
  }

  /**
   * Re-delivers, in per-stream order, every selected event after `fromCursor` (a cursor from a
   * delivery body or a dead letter; 'start' = from the first event), even those delivered before.
   * Open dead letters of events at or after the cursor are closed as `replayed`.
   */
  async replay(workspaceId: string, id: string, fromCursor: string): Promise<WebhookView> {
    const doc = await this.owned(workspaceId, id);
    const cursor = parseInput(cursorSchema, fromCursor, 'fromCursor');
    await this.assertStoreCursor(cursor);
    const requestedAt = this.now().toISOString();
    const updated = await this.updateWebhook(doc, (current) => ({
      ...current,
      replay: { id: this.deps.ids.uuid(), fromCursor: cursor, requestedAt },
    }));
    this.log.info({ workspaceId: doc.workspaceId, webhookId: doc._id, fromCursor: cursor }, 'webhook replay requested');
    this.changed();
    return webhookView(updated, this.now());
  }

  /** A new current secret; the previous ones keep signing until the grace period ends. */
  async rotateSecret(workspaceId: string, id: string): Promise<RotatedSecret> {
    const doc = await this.owned(workspaceId, id);
    const now = this.now();
    const secret = generateSecret();
    const entry = { id: this.deps.ids.uuid(), secret, createdAt: now.toISOString(), expiresAt: null };
    const updated = await this.updateWebhook(doc, (current) => ({
      ...current,
      secrets: rotate(current.secrets, entry, this.deps.settings.secretGraceSeconds, now),
    }));
    const previous = updated.secrets.filter((s) => s.id !== entry.id).map((s) => s.expiresAt ?? '');
    this.log.info({ workspaceId: doc.workspaceId, webhookId: doc._id, secretId: entry.id }, 'webhook secret rotated');
    this.changed();
    return {
      webhook: webhookView(updated, now),
      secret,
      previousSecretsExpireAt: previous.length === 0 ? null : (previous.sort().at(-1) ?? null),
    };
  }

  /** Oldest first, every status (open ones block their stream for this webhook). */
  async deadLetters(workspaceId: string, webhookId: string, page: PageInput = {}): Promise<DeadLetterPage> {
    const webhook = await this.owned(workspaceId, webhookId);
    return this.deadLetterPage({ webhookId: webhook._id, workspaceId: webhook.workspaceId }, page, deadLetterView);
  }

  /**
   * Operators only (the caller checks): the dead letters of every workspace's webhooks, oldest
   * first, each with its workspace, for `lomo dlq list`. Paged as deadLetters().
   */
  deadLettersOfEveryWorkspace(page: PageInput = {}): Promise<WorkspaceDeadLetterPage> {
    return this.deadLetterPage({}, page, (doc) => ({ ...deadLetterView(doc), workspaceId: doc.workspaceId }));
  }

  private async deadLetterPage<V>(
    filter: Record<string, string>,
    page: PageInput,
    view: (doc: DeadLetterDocument) => V,
  ): Promise<{ items: V[]; endCursor: string | null; hasMore: boolean }> {
    const { first, after } = parseInput(pageSchema, page, 'page');
    try {
      const result = await this.deps.documents.find<DeadLetterDocument>(Collections.deadLetters, {
        filter,
        sort: [['createdAt', 1]],
        limit: first,
        after,
      });
      return { items: result.items.map(view), endCursor: result.endCursor ?? null, hasMore: result.hasMore };
    } catch (error) {
      if (error instanceof InvalidQueryError) {
        throw new ValidationError('Invalid page.after', [{ path: 'page.after', message: 'not a cursor of this list' }]);
      }
      throw error;
    }
  }

  /** Asks the engine to deliver the event again (a new cycle of attempts); its stream resumes after it. */
  redeliver(workspaceId: string, deadLetterId: string): Promise<DeadLetterView> {
    return this.request(workspaceId, deadLetterId, 'redelivery_requested');
  }

  /** Gives the event up for this webhook; its stream's later events go on. */
  skip(workspaceId: string, deadLetterId: string): Promise<DeadLetterView> {
    return this.request(workspaceId, deadLetterId, 'skip_requested');
  }

  private async request(
    workspaceId: string,
    deadLetterId: string,
    status: Extract<DeadLetterStatus, 'redelivery_requested' | 'skip_requested'>,
  ): Promise<DeadLetterView> {
    const ws = parseWorkspaceId(workspaceId);
    const id = parseInput(idSchema, deadLetterId, 'deadLetterId');
    const updated = await updateDocument<DeadLetterDocument>(
      this.deps.documents,
      Collections.deadLetters,
      id,
      (current) => {
        if (current.workspaceId !== ws) throw new DeadLetterNotFoundError(id);
        if (current.status !== 'open') throw new DeadLetterNotOpenError(id, current.status);
        return { ...current, status, updatedAt: this.now().toISOString() };
      },
    );
    if (updated === undefined) throw new DeadLetterNotFoundError(id);
    this.log.info({ workspaceId: ws, webhookId: updated.webhookId, deadLetterId: id, status }, 'dead letter request');
    this.changed();
    return deadLetterView(updated);
  }

  /**
   * Production refuses a URL whose host is, or resolves to, a non-public address; a DNS failure
   * is WebhookHostUnresolvedError (retriable). Deliveries check again (stream-turn.ts): DNS may
   * change after this.
   */
  private async assertTarget(workspaceId: string, url: string): Promise<void> {
    const target = await vetTarget(url, this.deps.settings, this.deps.resolver);
    if (target.kind !== 'forbidden') return;
    const { host, address, addressClass } = target;
    this.log.warn({ workspaceId, host, address, addressClass }, 'webhook target refused in production');
    throw new WebhookTargetForbiddenError(host, address, addressClass);
  }

  private async owned(workspaceId: string, id: string): Promise<StoredDocument<WebhookDocument>> {
    const ws = parseWorkspaceId(workspaceId);
    const webhookId = parseInput(idSchema, id, 'webhookId');
    const doc = await this.deps.documents.get<WebhookDocument>(Collections.webhooks, webhookId);
    if (doc === undefined || doc.workspaceId !== ws || doc.status === 'deleted')
      throw new WebhookNotFoundError(webhookId);
    return doc;
  }

  private async updateWebhook(
    doc: StoredDocument<WebhookDocument>,
    change: (current: WebhookDocument) => WebhookDocument,
  ): Promise<StoredDocument<WebhookDocument>> {
    const updated = await updateDocument<WebhookDocument>(
      this.deps.documents,
      Collections.webhooks,
      doc._id,
      (current) => {
        // Deleted between the read and this write: the caller's id is gone.
        if (current.status === 'deleted') throw new WebhookNotFoundError(doc._id);
        const next = change(current);
        // A new secret, and plain ones of a document stored before encryption, are sealed here.
        const secrets = sealEntries(this.deps.secretBox, current._id, next.secrets);
        return { ...next, secrets, updatedAt: this.now().toISOString() };
      },
    );
    if (updated === undefined) throw new WebhookNotFoundError(doc._id);
    return updated;
  }

  /** Positions are opaque: only the store can tell whether one is valid, so it is asked. */
  private async assertStoreCursor(cursor: string): Promise<void> {
    try {
      await this.deps.events.readAll({ fromPosition: cursor, maxCount: 0 });
    } catch (error) {
      if (error instanceof ValidationError) {
        throw new ValidationError('Invalid fromCursor', [
          { path: 'fromCursor', message: 'not a cursor of this event store' },
        ]);
      }
      throw error;
    }
  }

  private changed(): void {
    this.deps.onChange?.();
  }

  private now(): Date {
    return this.deps.clock.now();
  }
}
