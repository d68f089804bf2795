import { Inject } from '@nestjs/common';
import { Args, Mutation, Resolver } from '@nestjs/graphql';
import type { Caller } from '@lomo/auth';
import { EVENT_BUS, type EventBus } from '@lomo/bus';
import { ApiError, ApiErrorCodes, CLOCK, ID_GENERATOR, notFound, type Clock, type IdGenerator } from '@lomo/contracts';
import { EVENT_STORE, type EventStore } from '@lomo/eventstore';
import { AccountErrors, AccountRefusedError, approveBudget, approveQuote, setSpendingLimits } from '@lomo/generation';
import { LOGGER, type Logger } from '@lomo/observability';
import { publishWakeUp } from '@lomo/runtime';
import { CurrentCaller } from '../../auth/current-caller.decorator';
import { tokenForWrites } from '../../consistency/token-for-writes';
import {
  ApproveBudgetArgs,
  approveBudgetArgsSchema,
  ApproveQuoteArgs,
  approveQuoteArgsSchema,
  SetSpendingLimitsArgs,
  setSpendingLimitsArgsSchema,
} from '../args/generation.args';
import { validate } from '../args/input-schemas';
import { AccountSettingPayload, ApproveQuotePayload } from '../types/generation.types';

/**
 * A person's approval of a quote a job waits on. Only person tokens approve: an integration's
 * paid operations are confirmed one by one by a person, and an operator reads, it does not spend.
 */
@Resolver()
export class GenerationMutationsResolver {
  private readonly logger: Logger;

  constructor(
    @Inject(EVENT_STORE) private readonly store: EventStore,
    @Inject(EVENT_BUS) private readonly bus: EventBus,
    @Inject(ID_GENERATOR) private readonly ids: IdGenerator,
    @Inject(CLOCK) private readonly clock: Clock,
    @Inject(LOGGER) logger: Logger,
  ) {
    this.logger = logger.child({ component: 'approve-quote' });
  }

  @Mutation(() => ApproveQuotePayload, {
    description:
      "Approves a job's quote as you, and resolves the task's approval checkpoint for it; the job is then reserved and sent. A repeat changes nothing. NOT_FOUND for an unknown quote and for another workspace's; FORBIDDEN for tokens that are not a person's.",
  })
  async approveQuote(@CurrentCaller() caller: Caller, @Args() args: ApproveQuoteArgs): Promise<ApproveQuotePayload> {
    const { quoteId } = validate(approveQuoteArgsSchema, args);
    if (caller.kind !== 'person')
      throw new ApiError(ApiErrorCodes.FORBIDDEN, 'Only a person approves paid work', { tokenKind: caller.kind });
    try {
      const result = await approveQuote(
        {
          store: this.store,
          ids: this.ids,
          clock: this.clock,
          wake: (message) => publishWakeUp(this.bus, message),
          logger: this.logger,
        },
        { workspaceId: caller.workspaceId, quoteId, userId: caller.userId },
      );
      return {
        quoteId,
        jobId: result.jobId,
        changed: result.changed,
        consistencyToken: tokenForWrites(result.writes),
      };
    } catch (error) {
      if (error instanceof AccountRefusedError && error.code === AccountErrors.QUOTE_NOT_FOUND)
        throw notFound('quote', quoteId);
      throw error;
    }
  }

  @Mutation(() => AccountSettingPayload, {
    description:
      "Approves a plan budget as you: paid work of the workspace (or of one task) may spend up to it. Jobs waiting on money go on. A retry with the same requestKey changes nothing. BAD_USER_INPUT for a bad amount or currency; FORBIDDEN for tokens that are not a person's.",
  })
  async approveBudget(
    @CurrentCaller() caller: Caller,
    @Args() args: ApproveBudgetArgs,
  ): Promise<AccountSettingPayload> {
    const input = validate(approveBudgetArgsSchema, args);
    const userId = this.personOf(caller, 'Only a person approves a budget');
    const result = await approveBudget(
      { store: this.store, ids: this.ids, clock: this.clock },
      {
        workspaceId: caller.workspaceId,
        userId,
        amountMinor: input.amountMinor,
        currency: input.currency,
        requestKey: input.requestKey,
        ...(input.taskId ? { taskId: input.taskId } : {}),
      },
    );
    return { changed: result.changed, consistencyToken: tokenForWrites(result.writes) };
  }

  @Mutation(() => AccountSettingPayload, {
    description:
      "Sets the auto-approve limits as you: a quote up to perCallAutoApproveMinor is reserved without asking while the day's auto-approved total stays within dailyAutoApproveMinor (the day in timeZone). BAD_USER_INPUT for an unknown time zone or a bad amount; FORBIDDEN for tokens that are not a person's.",
  })
  async setSpendingLimits(
    @CurrentCaller() caller: Caller,
    @Args() args: SetSpendingLimitsArgs,
  ): Promise<AccountSettingPayload> {
    const input = validate(setSpendingLimitsArgsSchema, args);
    const userId = this.personOf(caller, 'Only a person sets spending limits');
    const result = await setSpendingLimits(
      { store: this.store, ids: this.ids, clock: this.clock },
      { workspaceId: caller.workspaceId, userId, ...input },
    );
    return { changed: result.changed, consistencyToken: tokenForWrites(result.writes) };
  }

  private personOf(caller: Caller, message: string): string {
    if (caller.kind !== 'person') throw new ApiError(ApiErrorCodes.FORBIDDEN, message, { tokenKind: caller.kind });
    return caller.userId;
  }
}
