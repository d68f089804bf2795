import type { EventEnvelope } from '@lomo/contracts';
import { backoffDelay } from '@lomo/resilience';
import { SecretKeyMismatchError, SecretUnreadableError, WebhookHostUnresolvedError } from '../webhooks/webhook-errors';
import { vetTarget } from '../webhooks/webhook-target';
import type { DeliveryOutcome, WebhookRequest } from './http-transport';
import { activeEntries, revealSecrets } from '../webhooks/webhook-secrets';
import { openDeadLetter, settleDeadLetter } from './dead-letter-records';
import { deliveryRequest } from './delivery-request';
import type { StreamTurnContext } from './runner-context';
import { deadLettered, delivered, failed, isReady, passOver } from './stream-progress';

/** Events read per turn: a turn ends after them, so other streams get their share. */
const EVENTS_PER_TURN = 20;
/** A stream whose pending events (or its webhook's secrets) cannot be read waits this long before the next try. */
const UNREADABLE_PAUSE_MS = 60_000;

/**
 * One turn of one stream: deliver its next events in revision order until one fails (it is
 * retried later, or dead-lettered and the stream blocks) or the turn's share is used. State is
 * re-read from memory after every await: the scan, a replay or a skip may have moved it, and a
 * turn whose event is no longer next stops without writing.
 */
export async function runStreamTurn(ctx: StreamTurnContext, streamId: string): Promise<void> {
  const { deps, states } = ctx;
  const start = states.get(streamId);
  if (start === undefined || !isReady(start, deps.clock.now())) return;
  const events = await deps.events.readStream(streamId, {
    fromRevision: start.doneRevision + 1,
    maxCount: Math.min(EVENTS_PER_TURN, start.targetRevision - start.doneRevision),
  });
  if (events.length === 0) {
    ctx.log.error(
      { streamId, doneRevision: start.doneRevision, targetRevision: start.targetRevision },
      'pending events not readable',
    );
    const current = states.get(streamId);
    if (current !== undefined) {
      states.set({ ...current, notBefore: new Date(deps.clock.now().getTime() + UNREADABLE_PAUSE_MS).toISOString() });
    }
    return;
  }
  let passedOver = false;
  for (const event of events) {
    if (ctx.isStopping()) break;
    const state = states.get(streamId);
    const revision = event.metadata.revision;
    if (
      state === undefined ||
      state.blocked !== null ||
      state.doneRevision !== revision - 1 ||
      revision > state.targetRevision
    ) {
      break;
    }
    if (!ctx.selection.matches(event)) {
      states.set(passOver(state, revision));
      passedOver = true;
      continue;
    }
    passedOver = false;
    if (!(await attempt(ctx, event))) return;
  }
  if (passedOver) await states.persist(streamId);
}

/** True when delivered; otherwise the stream's state says when (or whether) to try again. */
async function attempt(ctx: StreamTurnContext, event: EventEnvelope): Promise<boolean> {
  const { deps, states } = ctx;
  const { streamId, revision, eventId } = event.metadata;
  const webhook = await ctx.freshWebhook();
  const before = states.get(streamId);
  if (webhook === undefined || before === undefined || before.doneRevision !== revision - 1) return false;
  const attemptNo = before.attempts + 1;
  const sentAt = deps.clock.now();
  let secrets: string[];
  try {
    secrets = revealSecrets(deps.secretBox, webhook._id, activeEntries(webhook.secrets, sentAt));
  } catch (error) {
    if (!(error instanceof SecretKeyMismatchError || error instanceof SecretUnreadableError)) throw error;
    // A configuration fault, not the receiver's: no attempt is counted and nothing goes unsigned;
    // the stream waits (a fixed LOMO_SECRETS_KEY takes a restart, which picks it up at once).
    ctx.log.error(
      { streamId, revision, eventId, code: error.code, ...error.details },
      'webhook secret cannot be decrypted with this LOMO_SECRETS_KEY; delivery waits',
    );
    states.set({ ...before, notBefore: new Date(sentAt.getTime() + UNREADABLE_PAUSE_MS).toISOString() });
    return false;
  }
  const request = deliveryRequest(webhook.url, webhook._id, event, secrets, attemptNo, sentAt);
  const context = { streamId, revision, eventId, eventType: event.type, attempt: attemptNo };
  const outcome = await sendToVettedTarget(ctx, request, context);

  const state = states.get(streamId);
  // Moved while the request was out (replay rebase, skip): the outcome no longer applies.
  if (state === undefined || state.doneRevision !== revision - 1) return false;
  const now = deps.clock.now();
  if (outcome.ok) {
    const { state: next, resolved } = delivered(state, revision);
    states.set(next);
    await states.persist(streamId);
    if (resolved !== null) await settleDeadLetter(deps.documents, resolved, 'redelivered', now);
    deps.metrics.count('delivered');
    ctx.log.debug({ ...context, status: outcome.status }, 'webhook delivered');
    return true;
  }
  if (outcome.status === 410 && deps.settings.disableOnGone) {
    deps.metrics.count('gone');
    ctx.log.warn({ ...context, url: webhook.url }, 'receiver answered 410 Gone: webhook disabled');
    await ctx.disable('the receiver answered 410 Gone');
    return false;
  }
  if (attemptNo >= deps.settings.maxAttempts) {
    const deadLetterId = await openDeadLetter(
      deps.documents,
      { id: webhook._id, workspaceId: webhook.workspaceId },
      event,
      attemptNo,
      outcome.error,
      now,
    );
    states.set(deadLettered(state, outcome.error, deadLetterId, revision));
    await states.persist(streamId);
    deps.metrics.count('dead_lettered');
    ctx.log.warn(
      { ...context, deadLetterId, error: outcome.error },
      'webhook delivery dead-lettered; its stream waits',
    );
    return false;
  }
  const delayMs = backoffDelay(attemptNo, deps.settings.backoff, deps.random);
  states.set(failed(state, outcome.error, new Date(now.getTime() + delayMs)));
  await states.persist(streamId);
  deps.metrics.count('failed');
  ctx.log.info({ ...context, delayMs, error: outcome.error }, 'webhook delivery failed; retrying');
  return false;
}

/**
 * Vets the target again, right before this attempt (the name may resolve elsewhere than at
 * registration: DNS rebinding), and sends pinned to a vetted address. A refused target or a DNS
 * failure is not sent and comes back as a failed attempt with its reason (`target_forbidden:
 * <address>`, `dns_failed: <code>`), so it is retried with backoff and dead-lettered after
 * maxAttempts like any other failure, and the reason is on the stream state and the dead letter.
 */
async function sendToVettedTarget(
  ctx: StreamTurnContext,
  request: WebhookRequest,
  context: Record<string, unknown>,
): Promise<DeliveryOutcome> {
  const { deps } = ctx;
  let target;
  try {
    target = await vetTarget(request.url, deps.settings, deps.resolver);
  } catch (error) {
    if (!(error instanceof WebhookHostUnresolvedError)) throw error;
    ctx.log.info({ ...context, host: error.host, dnsCode: error.dnsCode }, 'webhook host did not resolve');
    return { ok: false, status: null, error: `dns_failed: ${error.dnsCode}` };
  }
  if (target.kind === 'forbidden') {
    deps.metrics.count('target_forbidden');
    ctx.log.warn(
      { ...context, host: target.host, address: target.address, addressClass: target.addressClass },
      'webhook target refused in production; nothing sent',
    );
    return { ok: false, status: null, error: `target_forbidden: ${target.address}` };
  }
  const pinned = target.kind === 'allowed' ? { ...request, address: target.addresses[0] } : request;
  return deps.transport.send(pinned, deps.settings.requestTimeoutMs);
}
