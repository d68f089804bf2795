import { assertNever, type Decider } from '@lomo/domain';
import type { GenerationJobCommand } from './job-commands';
import type { GenerationJobEvent } from './job-events';
import { evolveGenerationJob } from './job-evolve';
import { initialGenerationJobState, type GenerationJobState } from './job-state';
import { recordCharge, recordRefund } from './decide-money';
import { askApproval, requestGeneration, startSubmission } from './decide-request';
import { completeGeneration, failGeneration, recordProgress, recordSubmission } from './decide-upstream';

export function decideGenerationJob(command: GenerationJobCommand, state: GenerationJobState): GenerationJobEvent[] {
  switch (command.type) {
    case 'RequestGeneration':
      return requestGeneration(command, state);
    case 'AskApproval':
      return askApproval(command, state);
    case 'StartSubmission':
      return startSubmission(command, state);
    case 'RecordSubmission':
      return recordSubmission(command, state);
    case 'RecordProgress':
      return recordProgress(command, state);
    case 'CompleteGeneration':
      return completeGeneration(command, state);
    case 'FailGeneration':
      return failGeneration(command, state);
    case 'RecordCharge':
      return recordCharge(command, state);
    case 'RecordRefund':
      return recordRefund(command, state);
    default:
      return assertNever(command, 'generation job command');
  }
}

/**
 * One paid media job (`generation-{jobId}` streams, DESIGN.md §3): requested once per
 * (workspace, key), submitted once, progress forward only, completed or failed for good, and
 * the job's record of its charge and refund on the account ledger (../account).
 */
export const generationJobDecider: Decider<GenerationJobCommand, GenerationJobEvent, GenerationJobState> = {
  initialState: initialGenerationJobState,
  decide: decideGenerationJob,
  evolve: evolveGenerationJob,
};
