import { Inject } from '@nestjs/common';
import { Args, Query, Resolver } from '@nestjs/graphql';
import type { Caller } from '@lomo/auth';
import { LOGGER, type Logger } from '@lomo/observability';
import { MEMORY_READ_MODEL, type MemoryReadModel } from '@lomo/read-models';
import { CurrentCaller } from '../../auth/current-caller.decorator';
import { ReadAfterWrite } from '../../consistency/read-after-write';
import { requireMemoryRead } from '../../tenancy/memory-access';
import {
  MemoriesArgs,
  MemoryByIdArgs,
  MemoryOwnerArgs,
  memoriesArgsSchema,
  memoryByIdArgsSchema,
  memoryOwnerArgsSchema,
} from '../args/memory.args';
import { validate } from '../args/input-schemas';
import { mapForgetting, mapMemory, mapProfile } from '../mappers/map-memory';
import { pageOfStore } from '../paging';
import type { ConnectionShape } from '../types/connection';
import { Forgetting } from '../types/forgetting.types';
import { MemoryScopeFilter } from '../types/memory-enums';
import { Memory, MemoryConnection, Profile } from '../types/memory.types';

const privacy =
  'Your own memory only: another person’s, even in your workspace, and any read with an integration token are FORBIDDEN; operators may name `workspaceId` and `userId`, and every such read is logged.';

/**
 * A person's memory from the `memories` read model. Whose memory is decided first, from the
 * stream id alone (requireMemoryRead); every read model call then names that person.
 */
@Resolver()
export class MemoryQueriesResolver {
  private readonly logger: Logger;

  constructor(
    @Inject(MEMORY_READ_MODEL) private readonly readModel: MemoryReadModel,
    @Inject(ReadAfterWrite) private readonly readAfterWrite: ReadAfterWrite,
    @Inject(LOGGER) logger: Logger,
  ) {
    this.logger = logger.child({ component: 'memory-api' });
  }

  @Query(() => MemoryConnection, {
    description: `What the agent remembers about you, most recently changed first: LONG_TERM, TASK (of one task with \`taskId\`) or ALL, of one status or all. ${privacy}`,
  })
  async memories(@CurrentCaller() caller: Caller, @Args() args: MemoriesArgs): Promise<ConnectionShape<Memory>> {
    const { first, after, consistentWith, scope, taskId, status, ...asked } = validate(memoriesArgsSchema, args);
    const owner = requireMemoryRead(caller, asked, this.logger, 'memories');
    await this.readAfterWrite.await(caller, consistentWith);
    const filter = {
      ...(scope !== MemoryScopeFilter.ALL ? { scope } : {}),
      ...(taskId !== undefined ? { taskId } : {}),
      ...(status !== undefined ? { status } : {}),
    };
    return pageOfStore(
      (cursor, limit) =>
        this.readModel.memories(owner, filter, { first: limit, ...(cursor !== undefined ? { after: cursor } : {}) }),
      first,
      after,
      (document) => mapMemory(owner, document),
    );
  }

  @Query(() => Memory, {
    nullable: true,
    description: `One memory with every version (purged ones marked, their text gone) and each version's evidence; null when you have none with that id. ${privacy}`,
  })
  async memory(@CurrentCaller() caller: Caller, @Args() args: MemoryByIdArgs): Promise<Memory | null> {
    const { id, consistentWith, ...asked } = validate(memoryByIdArgsSchema, args);
    const owner = requireMemoryRead(caller, asked, this.logger, 'memory');
    await this.readAfterWrite.await(caller, consistentWith);
    const document = await this.readModel.memory(owner, id);
    return document === undefined ? null : mapMemory(owner, document);
  }

  @Query(() => Profile, {
    nullable: true,
    description: `Your profile: the version in force with its text, and the earlier version numbers; null before the first. ${privacy}`,
  })
  async profile(@CurrentCaller() caller: Caller, @Args() args: MemoryOwnerArgs): Promise<Profile | null> {
    const { consistentWith, ...asked } = validate(memoryOwnerArgsSchema, args);
    const owner = requireMemoryRead(caller, asked, this.logger, 'profile');
    await this.readAfterWrite.await(caller, consistentWith);
    const document = await this.readModel.profile(owner);
    return document === undefined ? null : mapProfile(document);
  }

  @Query(() => Forgetting, {
    nullable: true,
    description: `A forgetting you asked for: its status and, once completed, its report; null when you have none with that id. ${privacy}`,
  })
  async forgetting(@CurrentCaller() caller: Caller, @Args() args: MemoryByIdArgs): Promise<Forgetting | null> {
    const { id, consistentWith, ...asked } = validate(memoryByIdArgsSchema, args);
    const owner = requireMemoryRead(caller, asked, this.logger, 'forgetting');
    await this.readAfterWrite.await(caller, consistentWith);
    const document = await this.readModel.forgetting(owner, id);
    return document?.forgetting ? mapForgetting(document.forgetting) : null;
  }
}
