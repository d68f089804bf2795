import { ValidationError } from '@lomo/contracts';
import type { SubscribeOptions } from '../event-bus.port';

/** The same rules as the in-process adapter; Kafka's own group id limits are looser. */
export function validateSubscription(options: SubscribeOptions): void {
  const issues: Array<{ path: string; message: string }> = [];
  if (!/^[A-Za-z0-9._-]{1,249}$/.test(options.groupId))
    issues.push({ path: 'groupId', message: 'group ids are 1-249 of [A-Za-z0-9._-]' });
  if (options.topics.length === 0) issues.push({ path: 'topics', message: 'at least one topic' });
  if (!Number.isInteger(options.maxAttempts) || options.maxAttempts < 1)
    issues.push({ path: 'maxAttempts', message: 'an integer >= 1' });
  if (typeof options.handler !== 'function') issues.push({ path: 'handler', message: 'a function' });
  if (issues.length > 0) throw new ValidationError('Invalid subscription', issues);
}
