import { Inject } from '@nestjs/common';
import { Args, Query, Resolver } from '@nestjs/graphql';
import type { Caller } from '@lomo/auth';
import { streams, validationFailed } from '@lomo/contracts';
import { GENERATION_READ_MODEL, type GenerationReadModel, type LedgerPage } from '@lomo/generation';
import { InvalidQueryError } from '@lomo/read-models';
import { CurrentCaller } from '../../auth/current-caller.decorator';
import { ReadAfterWrite } from '../../consistency/read-after-write';
import { StreamOwnership } from '../../tenancy/stream-ownership';
import {
  AccountLedgerArgs,
  GenerationJobsArgs,
  accountArgsSchema,
  accountLedgerArgsSchema,
  generationJobsArgsSchema,
} from '../args/generation.args';
import { validate } from '../args/input-schemas';
import { ConsistentArgs } from '../args/query.args';
import { emptyAccount, mapAccount, mapGenerationJob, mapLedgerEntry } from '../mappers/map-generation';
import { decodeCursor, encodeCursor } from '../paging';
import type { ConnectionShape } from '../types/connection';
import { Account, GenerationJob, LedgerEntry, LedgerEntryConnection } from '../types/generation.types';

/**
 * Paid generation as the caller's workspace sees it: a task's jobs, the account and its ledger,
 * from the generation read model. Every read is scoped by the caller's workspace; a task of
 * another workspace is NOT_FOUND like one that does not exist.
 */
@Resolver()
export class GenerationResolver {
  constructor(
    @Inject(GENERATION_READ_MODEL) private readonly readModel: GenerationReadModel,
    @Inject(StreamOwnership) private readonly ownership: StreamOwnership,
    @Inject(ReadAfterWrite) private readonly readAfterWrite: ReadAfterWrite,
  ) {}

  @Query(() => [GenerationJob], {
    description: "A task's paid media jobs, oldest first: phase, progress, cost and the artefact each became.",
  })
  async generationJobs(@CurrentCaller() caller: Caller, @Args() args: GenerationJobsArgs): Promise<GenerationJob[]> {
    const { taskId, consistentWith } = validate(generationJobsArgsSchema, args);
    await this.ownership.require(streams.task(taskId), caller, 'task', taskId);
    await this.readAfterWrite.await(caller, consistentWith);
    return (await this.readModel.jobsOfTask(caller.workspaceId, taskId)).map(mapGenerationJob);
  }

  @Query(() => Account, {
    description: "Your workspace's approved budgets, reserved, spent and refunded money, and today's auto-approve use.",
  })
  async account(@CurrentCaller() caller: Caller, @Args() args: ConsistentArgs): Promise<Account> {
    const { consistentWith } = validate(accountArgsSchema, args);
    await this.readAfterWrite.await(caller, consistentWith);
    const view = await this.readModel.account(caller.workspaceId);
    return view === undefined ? emptyAccount() : mapAccount(view);
  }

  @Query(() => LedgerEntryConnection, {
    description: "Your workspace's ledger, oldest entry first: reservations, releases, charges, refunds, approvals.",
  })
  async accountLedger(
    @CurrentCaller() caller: Caller,
    @Args() args: AccountLedgerArgs,
  ): Promise<ConnectionShape<LedgerEntry>> {
    const { first, after, consistentWith } = validate(accountLedgerArgsSchema, args);
    await this.readAfterWrite.await(caller, consistentWith);
    // The read model hands out one cursor per page (after its last item); an edge inside a page
    // resumes as "that page's start, skipping i + 1", as the artefact list does.
    const start = decodeCursor(after);
    let page: LedgerPage;
    try {
      page = await this.readModel.ledger(caller.workspaceId, first + start.s, start.a);
    } catch (error) {
      if (error instanceof InvalidQueryError)
        throw validationFailed([{ path: 'after', message: 'not a cursor this API issued' }]);
      throw error;
    }
    const items = page.items.slice(start.s);
    const edges = items.map((view, i) => ({
      node: mapLedgerEntry(view),
      cursor:
        i === items.length - 1 && page.endCursor !== undefined
          ? encodeCursor({ a: page.endCursor, s: 0 })
          : encodeCursor({ ...(start.a !== undefined ? { a: start.a } : {}), s: start.s + i + 1 }),
    }));
    return {
      edges,
      pageInfo: {
        hasNextPage: page.hasNextPage,
        hasPreviousPage: after !== undefined,
        startCursor: edges[0]?.cursor ?? null,
        endCursor: edges.at(-1)?.cursor ?? after ?? null,
      },
    };
  }
}
