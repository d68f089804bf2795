import type { DocumentNode, GraphQLError, GraphQLSchema } from 'graphql';
import type { SubscribePayload } from 'graphql-ws';
import type { Logger } from '@lomo/observability';
import { DEFAULT_PAGE_SIZE, MAX_PAGE_SIZE, type ApiSettings } from '../../api-settings';
import type { Caller } from '@lomo/auth';
import { ApiError, ApiErrorCodes } from '@lomo/contracts';
import type { TokenBucketRateLimiter } from '../../limits/token-bucket';
import { LiveError, LiveErrorCodes } from '../live-errors';
import { checkOperation } from './operation-check';
import { SubscriptionSlots } from './subscription-slots';

/**
 * Whether a subscribe message may run, cheapest refusal first: the token's rate bucket (shared
 * with HTTP), the operation's shape, then a subscription slot, held until `release`.
 */
export class SubscriptionAdmission {
  private readonly slots: SubscriptionSlots;

  constructor(
    private readonly api: Pick<
      ApiSettings,
      'maxDepth' | 'maxCost' | 'maxAliases' | 'maxDirectives' | 'maxTokens' | 'hideSuggestions'
    >,
    private readonly maxPerToken: number,
    private readonly limiter: TokenBucketRateLimiter,
    private readonly logger: Logger,
  ) {
    this.slots = new SubscriptionSlots(maxPerToken);
  }

  /** The parsed operation, or its parse/validation errors; throws typed refusals. */
  admit(caller: Caller, slot: string, schema: GraphQLSchema, payload: SubscribePayload): DocumentNode | GraphQLError[] {
    const decision = this.limiter.take(caller.tokenId, 1);
    if (!decision.allowed) {
      const retryAfterSeconds = Math.max(1, Math.ceil(decision.retryAfterMs / 1000));
      throw new ApiError(
        ApiErrorCodes.RATE_LIMITED,
        `Too many requests for this token; retry in ${retryAfterSeconds} s`,
        { retryAfterSeconds },
        { retriable: true },
      );
    }
    const document = checkOperation(schema, payload, {
      maxDepth: this.api.maxDepth,
      maxCost: this.api.maxCost,
      maxAliases: this.api.maxAliases,
      maxDirectives: this.api.maxDirectives,
      maxTokens: this.api.maxTokens,
      hideSuggestions: this.api.hideSuggestions,
      defaultPageSize: DEFAULT_PAGE_SIZE,
      maxPageSize: MAX_PAGE_SIZE,
    });
    if (Array.isArray(document)) return document;
    if (!this.slots.acquire(caller.tokenId, slot)) {
      const max = this.maxPerToken;
      this.logger.info({ tokenId: caller.tokenId, workspaceId: caller.workspaceId, max }, 'subscription refused');
      throw new LiveError(
        LiveErrorCodes.SUBSCRIPTION_LIMIT,
        `This token already holds ${max} subscriptions; complete one first`,
        { maxSubscriptions: max },
        true,
      );
    }
    return document;
  }

  release(tokenId: string, slot: string): void {
    this.slots.release(tokenId, slot);
  }
}
