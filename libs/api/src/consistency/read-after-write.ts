import { Inject, Injectable } from '@nestjs/common';
import type { Caller } from '@lomo/auth';
import { CONSISTENCY_GATE, type ConsistencyGate } from './consistency-gate';
import { decodeConsistencyToken } from './consistency-token';

/** What every query does first with its `consistentWith` argument. */
@Injectable()
export class ReadAfterWrite {
  constructor(@Inject(CONSISTENCY_GATE) private readonly gate: ConsistencyGate) {}

  async await(caller: Caller, consistentWith: string | null | undefined): Promise<void> {
    if (consistentWith === undefined || consistentWith === null) return;
    await this.gate.waitFor(decodeConsistencyToken(consistentWith), caller.workspaceId);
  }
}
