import { Inject, Optional } from '@nestjs/common';
import { Args, Mutation, Query, Resolver } from '@nestjs/graphql';
import { MemoryWorkerService } from '@lomo/application';
import { RelayHeaders } from '@lomo/bus';
import type { Caller } from '@lomo/auth';
import { ApiError, ApiErrorCodes, validationFailed } from '@lomo/contracts';
import { LOGGER, type Logger } from '@lomo/observability';
import { CurrentCaller } from '../../auth/current-caller.decorator';
import { MemoryDeadLetter, MemoryRedrivePayload } from '../types/memory-operations.types';

/**
 * Operators' view of memory's background work: its dead letters (article §7.4: a failed
 * extraction is handled later, never on a turn's path) and their redrive. Operator tokens only;
 * each redrive is logged with the operator's token. Served where the memory worker runs (the
 * standalone process; the executor app in distributed mode), MEMORY_UNAVAILABLE elsewhere.
 */
@Resolver()
export class MemoryOperationsResolver {
  constructor(
    @Inject(LOGGER) private readonly logger: Logger,
    @Optional() @Inject(MemoryWorkerService) private readonly worker?: MemoryWorkerService,
  ) {}

  @Query(() => [MemoryDeadLetter], {
    description: 'Memory work that failed every attempt, oldest first. Operator tokens only (FORBIDDEN otherwise).',
  })
  async memoryDeadLetters(@CurrentCaller() caller: Caller): Promise<MemoryDeadLetter[]> {
    const worker = this.workerFor(caller);
    return (await worker.deadLetters()).map((d) => ({
      topic: d.topic,
      partition: d.message.partition,
      offset: d.message.offset,
      eventType: d.message.headers[RelayHeaders.type] ?? 'unknown',
      errorCode: d.error.code,
      errorMessage: d.error.message,
      attempts: d.attempts,
      deadLetteredAt: d.deadLetteredAt,
    }));
  }

  @Mutation(() => MemoryRedrivePayload, {
    description:
      'Runs memory’s dead letters again (each piece of work is idempotent, so a redrive never doubles a memory). A write: refused unless confirm is true. Operator tokens only (FORBIDDEN otherwise); MEMORY_UNAVAILABLE where no memory worker runs.',
  })
  async redriveMemoryDeadLetters(
    @CurrentCaller() caller: Caller,
    @Args('confirm', { type: () => Boolean }) confirm: boolean,
  ): Promise<MemoryRedrivePayload> {
    const worker = this.workerFor(caller);
    if (confirm !== true)
      throw validationFailed([{ path: 'confirm', message: 'a redrive is a write: pass confirm: true' }]);
    this.logger.info(
      { operatorTokenId: caller.tokenId, operator: caller.userId },
      'operator redrives memory dead letters',
    );
    return worker.redrive();
  }

  private workerFor(caller: Caller): MemoryWorkerService {
    if (caller.kind !== 'operator')
      throw new ApiError(ApiErrorCodes.FORBIDDEN, 'Only an operator token reads or redrives memory dead letters');
    if (this.worker === undefined)
      throw new ApiError(ApiErrorCodes.MEMORY_UNAVAILABLE, 'No memory worker runs in this process');
    return this.worker;
  }
}
