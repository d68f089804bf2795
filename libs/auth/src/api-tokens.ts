import { randomUUID } from 'node:crypto';
import { z } from 'zod';
import { slug, zodIssues, validationFailed } from '@lomo/contracts';
import { generateTokenSecret, hashTokenSecret, tokenKinds, type ApiTokenRecord, type TokenKind } from './api-token';
import type { ApiTokenStore, RevokeOutcome } from './api-token-store.port';

const issueInput = z.strictObject({
  workspaceId: slug,
  userId: slug,
  name: z
    .string()
    .regex(/^[\p{L}\p{N} _.:-]{1,100}$/u, '1-100 letters, digits, spaces or _.:-')
    .default('api token'),
  kind: z.enum(tokenKinds).default('person'),
});

export interface IssuedToken {
  /** Shown once: only its hash is stored. */
  secret: string;
  record: ApiTokenRecord;
}

/** Issuing, listing and revoking tokens: what `lomo tokens` and the dev token share. */
export class ApiTokens {
  constructor(
    private readonly store: ApiTokenStore,
    private readonly now: () => Date = () => new Date(),
  ) {}

  async issue(input: { workspaceId: string; userId: string; name?: string; kind?: TokenKind }): Promise<IssuedToken> {
    const parsed = issueInput.safeParse(input);
    if (!parsed.success) throw validationFailed(zodIssues(parsed.error));
    const secret = generateTokenSecret();
    const record = await this.store.insert({
      id: randomUUID(),
      ...parsed.data,
      secretHash: hashTokenSecret(secret),
      createdAt: this.now().toISOString(),
    });
    return { secret, record };
  }

  list(filter: { workspaceId?: string; includeRevoked?: boolean } = {}): Promise<ApiTokenRecord[]> {
    return this.store.list(filter);
  }

  revoke(id: string): Promise<RevokeOutcome> {
    return this.store.revoke(id, this.now().toISOString());
  }

  /** The live token behind a presented secret, or undefined (unknown, revoked, malformed). */
  findActive(secret: string): Promise<ApiTokenRecord | undefined> {
    return this.store.findActiveByHash(hashTokenSecret(secret));
  }
}
