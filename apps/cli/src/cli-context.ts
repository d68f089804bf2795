import { randomUUID } from 'node:crypto';
import { ApiTokens, authSettings, callerOf, openApiTokenStore, tokenSecretPattern, type Caller } from '@lomo/auth';
import { systemClock, type Clock, type IdGenerator } from '@lomo/contracts';
import type { LomoConfig } from '@lomo/config';
import type { Logger } from '@lomo/observability';
import { BadOperatorInputError } from '@lomo/operator';
import type { CliOutput } from './cli-output';
import { createProgress, type ProgressReporter } from './cli-progress-bar';
import { openOperatorStores, type OperatorStores } from './open-stores';

export type { OperatorStores } from './open-stores';
export type { CliOutput } from './cli-output';

/** What every command gets: configuration, stores opened on first use, the caller, output. */
export interface CliContext {
  readonly config: LomoConfig;
  openStores(): Promise<OperatorStores>;
  /** The token's caller (`--token` or LOMO_TOKEN), checked against the token store as the API checks it. */
  caller(): Promise<Caller>;
  readonly clock: Clock;
  readonly ids: IdGenerator;
  readonly out: CliOutput;
  progress(label: string, total?: number): ProgressReporter;
  readonly logger: Logger;
  /** Info-level, on stderr: the line every operator read leaves (logOperatorRead of @lomo/auth). */
  readonly audit: Logger;
  /** Resolved when the process is asked to stop (SIGINT/SIGTERM): `--follow` ends on it. */
  readonly signal: AbortSignal;
}

export class MissingTokenError extends BadOperatorInputError {
  constructor() {
    super('this command reads the stores as someone: give --token <lomo_...> or set LOMO_TOKEN');
  }
}

export class UnknownTokenError extends BadOperatorInputError {
  constructor(reason: string) {
    super(`the token was refused: ${reason}`);
  }
}

export interface CliContextOptions {
  config: LomoConfig;
  logger: Logger;
  audit: Logger;
  out: CliOutput;
  token: string | undefined;
  quiet: boolean;
  signal: AbortSignal;
}

/** Owns what it opened; `close()` at exit. */
export class DefaultCliContext implements CliContext {
  readonly clock = systemClock;
  readonly ids: IdGenerator = { uuid: () => randomUUID() };
  private stores: Promise<OperatorStores> | undefined;
  private callerPromise: Promise<Caller> | undefined;

  constructor(private readonly options: CliContextOptions) {}

  get config() {
    return this.options.config;
  }
  get out() {
    return this.options.out;
  }
  get logger() {
    return this.options.logger;
  }
  get audit() {
    return this.options.audit;
  }
  get signal() {
    return this.options.signal;
  }

  openStores(): Promise<OperatorStores> {
    this.stores ??= openOperatorStores(this.options.config, this.options.logger);
    return this.stores;
  }

  caller(): Promise<Caller> {
    this.callerPromise ??= this.authenticate();
    return this.callerPromise;
  }

  progress(label: string, total?: number): ProgressReporter {
    return createProgress(label, total, this.options.quiet);
  }

  async close(): Promise<void> {
    if (this.stores !== undefined) await (await this.stores.catch(() => undefined))?.close();
  }

  private async authenticate(): Promise<Caller> {
    const secret = this.options.token;
    if (secret === undefined || secret === '') throw new MissingTokenError();
    // Checked before any store opens: a malformed token changes nothing anywhere.
    if (!tokenSecretPattern.test(secret)) throw new UnknownTokenError('it is not a lomo token');
    // No cache: the CLI makes one check and must see revocations at once.
    const store = await openApiTokenStore(authSettings(this.options.config), this.options.logger, { cache: false });
    try {
      const record = await new ApiTokens(store).findActive(secret);
      if (record === undefined) throw new UnknownTokenError('unknown or revoked');
      return callerOf(record);
    } finally {
      await store.close();
    }
  }
}
