import type { Command } from 'commander';
import type { Caller } from '@lomo/auth';
import { loadConfig, type LomoConfig } from '@lomo/config';
import { createLogger, type Logger } from '@lomo/observability';
import pino from 'pino';
import { DefaultCliContext, type CliContext, type OperatorStores } from './cli-context';
import { createOutput, type CliOutput, type Writers } from './cli-output';
import type { ProgressReporter } from './cli-progress-bar';

interface GlobalOptions {
  json?: boolean;
  token?: string;
  quiet?: boolean;
}

/**
 * The context commands see, resolved on first use after commander parsed the global options
 * (`--json`, `--token`, `--quiet`): `--help` and a malformed command line need no configuration
 * and open nothing.
 */
export class ProgramContext implements CliContext {
  private inner: DefaultCliContext | undefined;
  private output: CliOutput | undefined;

  constructor(
    private readonly program: Command,
    private readonly env: NodeJS.ProcessEnv,
    private readonly writers: Writers,
    readonly signal: AbortSignal,
  ) {}

  private get options(): GlobalOptions {
    return this.program.opts<GlobalOptions>();
  }

  private resolve(): DefaultCliContext {
    if (this.inner === undefined) {
      const config = loadConfig(this.env);
      // Logs go to stderr: stdout carries the results.
      const logger = createLogger({
        level: 'warn',
        name: 'lomo-cli',
        destination: pino.destination({ dest: 2, sync: true }),
      });
      const audit = createLogger({
        level: 'info',
        name: 'lomo-cli',
        destination: pino.destination({ dest: 2, sync: true }),
      });
      this.inner = new DefaultCliContext({
        config,
        logger,
        audit,
        out: this.out,
        token: this.options.token ?? this.env.LOMO_TOKEN,
        quiet: this.options.quiet === true,
        signal: this.signal,
      });
    }
    return this.inner;
  }

  get config(): LomoConfig {
    return this.resolve().config;
  }
  get logger(): Logger {
    return this.resolve().logger;
  }
  get audit(): Logger {
    return this.resolve().audit;
  }
  get clock() {
    return this.resolve().clock;
  }
  get ids() {
    return this.resolve().ids;
  }
  get out(): CliOutput {
    this.output ??= createOutput(this.options.json === true, this.writers);
    return this.output;
  }
  openStores(): Promise<OperatorStores> {
    return this.resolve().openStores();
  }
  caller(): Promise<Caller> {
    return this.resolve().caller();
  }
  progress(label: string, total?: number): ProgressReporter {
    return this.resolve().progress(label, total);
  }
  async close(): Promise<void> {
    await this.inner?.close();
  }
}
