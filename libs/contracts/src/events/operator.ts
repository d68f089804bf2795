import { z } from 'zod';
import { isoDateTime, userId, uuid, workspaceId } from '../ids';

/**
 * The `operator-{workspaceId}` stream: what operators did to the system with the `lomo` CLI or
 * the inspector (DESIGN.md §4 "Tenancy": operators read across workspaces, and their writes are
 * facts like any other). The stream belongs to the operator's own workspace (the one their token
 * acts in); `targetWorkspaceId` names the workspace the action touched, when it touched one.
 * Visible to operator tokens only (libs/auth/src/visibility-policy.ts).
 */

/** What an operator may change; reads are logged, not recorded (logOperatorRead). */
export const operatorActionKind = z.enum([
  /** A workspace's streams and blobs imported from an export. */
  'workspace_imported',
  /** Bus dead letters of one consumer group sent back to it. */
  'bus_dead_letters_redriven',
  /** Webhook deliveries that had failed for good, sent again. */
  'webhook_dead_letters_redriven',
  /** Read models rebuilt into fresh collections and switched. */
  'projections_rebuilt',
  /** A task forked into a new, lineage-linked task (issue 20, `lomo task fork`). */
  'task_forked',
  /** A fork's tools armed (`lomo task arm`). */
  'fork_tools_armed',
]);
export type OperatorActionKind = z.infer<typeof operatorActionKind>;

/** Figures and names of what the action did: small, flat and free of content. */
const actionDetails = z.record(
  z.string().regex(/^[a-zA-Z][a-zA-Z0-9_]{0,63}$/),
  z.union([z.string().max(2_000), z.number(), z.boolean(), z.array(z.string().max(500)).max(1_000)]),
);

export const OperatorActionRecorded = z.strictObject({
  actionId: uuid,
  action: operatorActionKind,
  operator: z.strictObject({ userId, tokenId: z.string().min(1).max(200), tokenName: z.string().max(200) }),
  /** The workspace the action touched; absent for system-wide actions (projections, bus groups). */
  targetWorkspaceId: workspaceId.optional(),
  /** `cli` or `inspector`, and the command line's verb (`dlq redrive`). */
  via: z.strictObject({ tool: z.enum(['cli', 'inspector']), command: z.string().min(1).max(100) }),
  outcome: z.enum(['completed', 'partial', 'failed']),
  details: actionDetails,
  recordedAt: isoDateTime,
});
