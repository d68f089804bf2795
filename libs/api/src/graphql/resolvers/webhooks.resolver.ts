import { Inject } from '@nestjs/common';
import { Args, Mutation, Query, Resolver } from '@nestjs/graphql';
import { WebhookService, type DeadLetterView, type WebhookView } from '@lomo/webhooks';
import type { Caller } from '@lomo/auth';
import { CurrentCaller } from '../../auth/current-caller.decorator';
import {
  DeadLetterIdArgs,
  RegisterWebhookArgs,
  ReplayWebhookArgs,
  Webhook,
  WebhookDeadLetter,
  WebhookDeadLetterPage,
  WebhookDeadLettersArgs,
  WebhookIdArgs,
  WebhookWithSecretPayload,
} from '../types/webhook.types';

/**
 * Webhooks of the caller's workspace. The notifier's WebhookService validates every input and
 * scopes every id to the workspace (another workspace's ids are not found); this only maps types.
 */
@Resolver()
export class WebhooksResolver {
  constructor(@Inject(WebhookService) private readonly service: WebhookService) {}

  @Query(() => [Webhook], { description: 'The workspace’s webhooks.' })
  async webhooks(@CurrentCaller() caller: Caller): Promise<Webhook[]> {
    return (await this.service.list(caller.workspaceId)).map(toWebhook);
  }

  @Query(() => WebhookDeadLetterPage, {
    description: 'Dead letters of a webhook, oldest first; an open one holds back its stream.',
  })
  async webhookDeadLetters(
    @CurrentCaller() caller: Caller,
    @Args() args: WebhookDeadLettersArgs,
  ): Promise<WebhookDeadLetterPage> {
    const page = await this.service.deadLetters(caller.workspaceId, args.webhookId, {
      first: args.first,
      after: args.after,
    });
    return { items: page.items.map(toDeadLetter), endCursor: page.endCursor, hasMore: page.hasMore };
  }

  @Mutation(() => WebhookWithSecretPayload, {
    description: 'Registers a webhook; its signing secret is returned once.',
  })
  async registerWebhook(
    @CurrentCaller() caller: Caller,
    @Args() args: RegisterWebhookArgs,
  ): Promise<WebhookWithSecretPayload> {
    const created = await this.service.register(
      caller.workspaceId,
      {
        url: args.url,
        eventTypes: args.eventTypes,
        ...(args.description !== undefined ? { description: args.description } : {}),
      },
      // Deliveries are what this caller may see (libs/webhooks event-selection.ts).
      { tokenId: caller.tokenId, userId: caller.userId, kind: caller.kind },
    );
    return { webhook: toWebhook(created.webhook), secret: created.secret };
  }

  @Mutation(() => Boolean, { description: 'Deletes a webhook; deliveries stop.' })
  async deleteWebhook(@CurrentCaller() caller: Caller, @Args() args: WebhookIdArgs): Promise<boolean> {
    await this.service.delete(caller.workspaceId, args.id);
    return true;
  }

  @Mutation(() => Webhook, {
    description: 'Delivers again from a cursor (at least once; receivers dedupe by event id).',
  })
  async replayWebhook(@CurrentCaller() caller: Caller, @Args() args: ReplayWebhookArgs): Promise<Webhook> {
    return toWebhook(await this.service.replay(caller.workspaceId, args.id, args.fromCursor));
  }

  @Mutation(() => WebhookWithSecretPayload, {
    description: 'A new signing secret; the previous one signs too until it expires.',
  })
  async rotateWebhookSecret(
    @CurrentCaller() caller: Caller,
    @Args() args: WebhookIdArgs,
  ): Promise<WebhookWithSecretPayload> {
    const rotated = await this.service.rotateSecret(caller.workspaceId, args.id);
    return { webhook: toWebhook(rotated.webhook), secret: rotated.secret };
  }

  @Mutation(() => WebhookDeadLetter, {
    description: 'Delivers a dead-lettered event again; its stream resumes after it.',
  })
  async redeliverDeadLetter(
    @CurrentCaller() caller: Caller,
    @Args() args: DeadLetterIdArgs,
  ): Promise<WebhookDeadLetter> {
    return toDeadLetter(await this.service.redeliver(caller.workspaceId, args.deadLetterId));
  }

  @Mutation(() => WebhookDeadLetter, {
    description: 'Gives a dead-lettered event up; its stream’s later events go on.',
  })
  async skipDeadLetter(@CurrentCaller() caller: Caller, @Args() args: DeadLetterIdArgs): Promise<WebhookDeadLetter> {
    return toDeadLetter(await this.service.skip(caller.workspaceId, args.deadLetterId));
  }
}

const toWebhook = (w: WebhookView): Webhook => ({
  id: w.id,
  url: w.url,
  eventTypes: w.eventTypes,
  description: w.description,
  status: w.status,
  disabledReason: w.disabledReason,
  secrets: w.secrets,
  createdAt: w.createdAt,
});

const toDeadLetter = (d: DeadLetterView): WebhookDeadLetter => ({
  id: d.id,
  webhookId: d.webhookId,
  streamId: d.streamId,
  eventId: d.eventId,
  eventType: d.eventType,
  revision: d.revision,
  cursor: d.cursor,
  attempts: d.attempts,
  lastError: d.lastError,
  status: d.status,
  createdAt: d.createdAt,
});
