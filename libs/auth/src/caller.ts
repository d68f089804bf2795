import type { Request } from 'express';

/** Who is calling: a token acts for one user in one workspace, the tenant boundary. */
export interface Caller {
  tokenId: string;
  tokenName: string;
  workspaceId: string;
  userId: string;
}

/** The GraphQL context of every request; the gate middleware sets `caller` before Apollo runs. */
export interface ApiContext {
  caller: Caller;
}

export type AuthenticatedRequest = Request & { lomoCaller?: Caller };
