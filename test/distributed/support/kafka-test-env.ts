import { randomBytes } from 'node:crypto';
import type { BusLogger } from '@lomo/bus';

/** The broker `scripts/infra/kafka.sh start` runs; KAFKA_BROKERS overrides it (comma-separated). */
export const kafkaBrokers: string[] = (process.env.KAFKA_BROKERS ?? '127.0.0.1:9092').split(',');

/**
 * The broker is shared by every run and keeps its data, so each run names its topics and groups
 * with a run id of its own.
 */
export const runId = `${Date.now().toString(36)}-${randomBytes(3).toString('hex')}`;

let sequence = 0;
export function uniqueKafkaName(base: string): string {
  sequence += 1;
  return `${base}.${runId}.${sequence}`;
}

/**
 * Errors always reach stderr (one means something was not recovered from); warnings and info
 * only with LOMO_TEST_LOG=1, since rebalances and broker restarts produce plenty by design.
 */
export function testBusLogger(name: string): BusLogger {
  const verbose = process.env.LOMO_TEST_LOG === '1';
  const line = (level: string, context: Record<string, unknown>, message: string) =>
    process.stderr.write(`[${name}] ${level} ${message} ${JSON.stringify(context)}\n`);
  return {
    info: (context, message) => verbose && line('info', context, message),
    warn: (context, message) => verbose && line('warn', context, message),
    error: (context, message) => line('error', context, message),
  };
}
