import type { CallAuthority, SideEffectClass } from '../tool.port';

/**
 * Call ids a person approved, as the domain's one approval rule reads them from the task's events
 * (isApproved in libs/domain/src/task/task-queries.ts). Nothing the model writes ever gets in here.
 */
export interface ApprovedCalls {
  has(callId: string): boolean;
}

export interface AuthorizationRequest {
  toolName: string;
  sideEffect: SideEffectClass;
  /** The tool's declaration; absent = 'person'. */
  authorizedBy?: CallAuthority;
  callId: string;
  approvedCalls: ApprovedCalls;
}

export type AuthorizationDecision =
  | { decision: 'allowed' }
  /** The runtime opens an approval checkpoint naming `callId` and waits for its resolution. */
  | { decision: 'needs_approval'; callId: string; question: string };

/** Side-effect classes that need a person's recorded approval for each call (DESIGN.md §5). */
export const requiresApproval = (sideEffect: SideEffectClass): boolean =>
  sideEffect === 'paid' || sideEffect === 'irreversible';

/**
 * Decides, before a call runs, whether it may run. Pure: the evidence is the set of approvals
 * recorded in the task stream, and only an approval of exactly this call id counts, so an
 * approval can never be stretched to a retry with other arguments or to a sibling call.
 */
export function authorizeCall(request: AuthorizationRequest): AuthorizationDecision {
  if (!requiresApproval(request.sideEffect)) return { decision: 'allowed' };
  // The ledger gates the money of a paid order itself; irreversible calls always need a person
  // (the registry refuses 'ledger' on them, and this check holds even for a definition it never saw).
  if (request.sideEffect === 'paid' && request.authorizedBy === 'ledger') return { decision: 'allowed' };
  if (request.approvedCalls.has(request.callId)) return { decision: 'allowed' };
  return { decision: 'needs_approval', callId: request.callId, question: approvalQuestion(request) };
}

function approvalQuestion({ toolName, sideEffect, callId }: AuthorizationRequest): string {
  const why = sideEffect === 'paid' ? 'costs money' : 'cannot be undone';
  return `The agent wants to run "${toolName}", which ${why}. Allow this call (${callId})?`;
}
