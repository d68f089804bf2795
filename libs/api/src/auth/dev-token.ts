import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { Inject, Injectable, type OnApplicationBootstrap } from '@nestjs/common';
import { LOGGER, type Logger } from '@lomo/observability';
import { API_SETTINGS, API_TOKENS } from '../api-di-tokens';
import type { ApiSettings } from '../api-settings';
import { tokenSecretPattern, type ApiTokens } from '@lomo/auth';

export const DEV_TOKEN_NAME = 'dev token';

/**
 * Embedded, non-production runs get a token at start so the API can be tried at once. The secret
 * is kept next to the token store (mode 0600) so a restart on the same data directory logs the
 * same token instead of piling up new ones; a revoked or lost one is replaced.
 */
@Injectable()
export class DevTokenBootstrap implements OnApplicationBootstrap {
  constructor(
    @Inject(API_SETTINGS) private readonly settings: ApiSettings,
    @Inject(API_TOKENS) private readonly tokens: ApiTokens,
    @Inject(LOGGER) private readonly logger: Logger,
  ) {}

  async onApplicationBootstrap(): Promise<void> {
    const dev = this.settings.devToken;
    if (dev === undefined) return;
    const file = join(dirname(this.settings.authSqlitePath), 'dev-token');
    const kept = existsSync(file) ? readFileSync(file, 'utf8').trim() : '';
    const record = tokenSecretPattern.test(kept) ? await this.tokens.findActive(kept) : undefined;
    if (record !== undefined && record.workspaceId === dev.workspaceId && record.userId === dev.userId) {
      this.log(kept, record.id, dev, false);
      return;
    }
    const issued = await this.tokens.issue({ ...dev, name: DEV_TOKEN_NAME });
    writeFileSync(file, `${issued.secret}\n`, { mode: 0o600 });
    this.log(issued.secret, issued.record.id, dev, true);
  }

  private log(secret: string, tokenId: string, dev: { workspaceId: string; userId: string }, created: boolean) {
    this.logger.info(
      { devToken: secret, tokenId, workspaceId: dev.workspaceId, userId: dev.userId, created },
      'dev API token (embedded mode only): send it as "Authorization: Bearer <token>" to /graphql',
    );
  }
}
