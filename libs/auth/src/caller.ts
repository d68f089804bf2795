import type { Request } from 'express';
import type { TokenKind } from './api-token';

/**
 * Who is calling: a token acts for one user in one workspace, the tenant boundary. `kind` says
 * what it may see and do there (visibility-policy.ts); an operator also reads other workspaces.
 */
export interface Caller {
  tokenId: string;
  tokenName: string;
  workspaceId: string;
  userId: string;
  kind: TokenKind;
}

/** The GraphQL context of every request; the gate middleware sets `caller` before Apollo runs. */
export interface ApiContext {
  caller: Caller;
}

export type AuthenticatedRequest = Request & { lomoCaller?: Caller };
