import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { repoRoot } from './child-process';

const run = promisify(execFile);

/**
 * Stops or starts the local broker through scripts/infra/kafka.sh (data is kept across a stop).
 * Asynchronous on purpose: the test's publishers and consumers keep running meanwhile.
 */
export async function kafkaBroker(command: 'start' | 'stop' | 'status'): Promise<string> {
  const { stdout } = await run('bash', ['scripts/infra/kafka.sh', command], { cwd: repoRoot, timeout: 120_000 });
  return stdout;
}

export async function isBrokerRunning(): Promise<boolean> {
  try {
    return (await kafkaBroker('status')).startsWith('running');
  } catch {
    return false;
  }
}
