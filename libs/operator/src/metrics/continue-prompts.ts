import type { EventEnvelope } from '@lomo/contracts';
import { dataOf, finding, normalized, type CountedMetric } from './collaboration-log';

/**
 * A message that only asks the agent to go on: the person had to push a task the agent should
 * have carried forward by itself (article §11.2). English and Chinese forms; a message that says
 * anything more ("continue, but warmer") is a real instruction and does not count.
 */
const BARE_CONTINUE = new Set(
  [
    'continue',
    'please continue',
    'go on',
    'please go on',
    'keep going',
    'carry on',
    'proceed',
    'please proceed',
    'next',
    'go ahead',
    'ok continue',
    'continue please',
    '继续',
    '繼續',
    '请继续',
    '請繼續',
    '继续吧',
    '繼續吧',
    '接着做',
    '接著做',
    '下一步',
  ].map(normalized),
);

export const isBareContinue = (text: string): boolean => BARE_CONTINUE.has(normalized(text));

export function continuePrompts(events: readonly EventEnvelope[]): CountedMetric {
  const findings = events
    .filter((e) => e.type === 'UserMessageReceived' && isBareContinue(dataOf<{ text: string }>(e).text))
    .map((e) => {
      const target = dataOf<{ target?: { taskId?: string } }>(e).target?.taskId ?? null;
      return finding(e, target, `"${dataOf<{ text: string }>(e).text}"`);
    });
  return { count: findings.length, findings };
}
