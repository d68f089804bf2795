import pino, { type DestinationStream, type Logger as PinoLogger } from 'pino';
import { traceContext } from './trace-context';

/** The logging shape the libraries accept: a context object first, then a fixed message. */
export interface Logger {
  debug(context: Record<string, unknown>, message: string): void;
  info(context: Record<string, unknown>, message: string): void;
  warn(context: Record<string, unknown>, message: string): void;
  error(context: Record<string, unknown>, message: string): void;
  child(bindings: Record<string, unknown>): Logger;
}

export const LOGGER = Symbol('LOGGER');

/**
 * JSON logs on stdout. Correlation and causation ids of the current trace context are added to
 * every line, so a line about an event can be found from the command that caused it.
 */
export function createLogger(options: { level?: string; name?: string; destination?: DestinationStream } = {}): Logger {
  const base: PinoLogger = pino(
    {
      level: options.level ?? 'info',
      name: options.name ?? 'lomo',
      base: { pid: process.pid },
      timestamp: pino.stdTimeFunctions.isoTime,
      formatters: { level: (label) => ({ level: label }) },
      mixin: () => {
        const t = traceContext.current();
        return t ? { correlationId: t.correlationId, causationId: t.causationId } : {};
      },
    },
    // Synchronous stdout: a line written just before a crash or a signal-triggered exit is kept.
    options.destination ?? pino.destination({ dest: 1, sync: true }),
  );
  return wrap(base);
}

function wrap(p: PinoLogger): Logger {
  return {
    debug: (c, m) => p.debug(c, m),
    info: (c, m) => p.info(c, m),
    warn: (c, m) => p.warn(c, m),
    error: (c, m) => p.error(c, m),
    child: (b) => wrap(p.child(b)),
  };
}

export const silentLogger: Logger = {
  debug: () => undefined,
  info: () => undefined,
  warn: () => undefined,
  error: () => undefined,
  child: () => silentLogger,
};
