import { logLevel, type logCreator } from 'kafkajs';
import type { BusLogger } from '../logger';
import type { KafkaLogLevel } from './kafka-options';

const levels: Record<KafkaLogLevel, logLevel> = {
  nothing: logLevel.NOTHING,
  error: logLevel.ERROR,
  warn: logLevel.WARN,
  info: logLevel.INFO,
  debug: logLevel.DEBUG,
};

export function toKafkaLogLevel(level: KafkaLogLevel): logLevel {
  return levels[level];
}

/**
 * Routes kafkajs' log lines into the bus logger with their fields as the context object.
 * kafkajs logs at ERROR what it then retries itself (COORDINATOR_LOAD_IN_PROGRESS on a fresh
 * broker, a connection refused during a restart); those arrive as warnings, flagged
 * `kafkajsLevel: "ERROR"`, so an alert on error lines means something we did not recover from.
 */
export function kafkaLogCreator(logger: BusLogger): logCreator {
  return () =>
    ({ namespace, level, log }) => {
      const { message, ...fields } = log;
      const context = { ...fields, kafkajs: namespace };
      const text = `kafkajs: ${message}`;
      if (level === logLevel.ERROR) {
        if (isRetriedByKafkajs(message, fields)) logger.warn({ ...context, kafkajsLevel: 'ERROR' }, text);
        else logger.error(context, text);
      } else if (level === logLevel.WARN && !producerRetriesNotice.test(message)) logger.warn(context, text);
      else logger.info(context, text);
    };
}

// kafkajs warns when an idempotent producer's retries are bounded; ours are on purpose, and the
// producer is replaced after a failed send (see KafkaPublisher), so this is not a warning here.
const producerRetriesNotice = /^Limiting retries for the idempotent producer/;

const retriedConditions =
  /coordinator|leader|not available|in progress|concurrent transactions|concurrent operation|connection|ECONNREFUSED|ECONNRESET|timeout|rebalanc/i;

function isRetriedByKafkajs(message: string, fields: Record<string, unknown>): boolean {
  // kafkajs adds retryCount/retryTime when it is about to retry; otherwise the condition is in the
  // message or the error text (a refused connection, a coordinator still loading, a moved leader).
  if (typeof fields.retryCount === 'number' || typeof fields.retryTime === 'number') return true;
  const error = typeof fields.error === 'string' ? fields.error : '';
  return retriedConditions.test(message) || retriedConditions.test(error);
}
