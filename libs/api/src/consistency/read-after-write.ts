import { Inject, Injectable } from '@nestjs/common';
import { canSee, privateOwnerOf, type Caller } from '@lomo/auth';
import { ApiError, ApiErrorCodes } from '@lomo/contracts';
import { CONSISTENCY_GATE, type ConsistencyGate } from './consistency-gate';
import { decodeConsistencyToken, type StreamRevision } from './consistency-token';

/** What every query does first with its `consistentWith` argument. */
@Injectable()
export class ReadAfterWrite {
  constructor(@Inject(CONSISTENCY_GATE) private readonly gate: ConsistencyGate) {}

  async await(caller: Caller, consistentWith: string | null | undefined): Promise<void> {
    if (consistentWith === undefined || consistentWith === null) return;
    const pairs = decodeConsistencyToken(consistentWith);
    refuseHiddenPrivateStreams(caller, pairs);
    await this.gate.waitFor(pairs, caller.workspaceId);
  }
}

/**
 * A token naming a private stream the caller may not see (another person's main line or memory)
 * is refused before anything is looked up, with one answer whether the stream exists or not:
 * waiting on it would tell its existence and its progress (visibility-policy.ts decides).
 */
function refuseHiddenPrivateStreams(caller: Caller, pairs: readonly StreamRevision[]): void {
  for (const { streamId } of pairs) {
    const owner = privateOwnerOf(streamId);
    if (owner === undefined) continue;
    // The caller's own stream, whatever its kind: its own writes' tokens name it.
    if (owner.workspaceId === caller.workspaceId && owner.userId === caller.userId) continue;
    if (canSee(caller, { streamId, workspaceId: owner.workspaceId }) === 'hidden') {
      throw new ApiError(
        ApiErrorCodes.INVALID_CONSISTENCY_TOKEN,
        'Invalid consistency token: it names a stream you cannot read',
        {
          reason: 'it names a stream you cannot read',
        },
      );
    }
  }
}
