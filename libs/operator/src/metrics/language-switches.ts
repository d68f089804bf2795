import type { EventEnvelope } from '@lomo/contracts';
import { detectLanguage } from '@lomo/llm';
import { dataOf, finding, idOf, turnTasks, type CountedMetric } from './collaboration-log';

const primary = (tag: string) => tag.toLowerCase().split('-')[0];

/**
 * The language a reply is written in, by its letters: Chinese when Han characters are at least
 * a third of them (an English reply quoting a Chinese title stays English), else the Latin
 * language the offline detector sees; undefined for a reply too short to tell (under 12 letters).
 */
export function writtenLanguage(text: string): string | undefined {
  text = withoutIdentifiers(text);
  const han = text.match(/\p{Script=Han}/gu)?.length ?? 0;
  const latin = text.match(/\p{Script=Latin}/gu)?.length ?? 0;
  if (han + latin < 4) return undefined;
  if (han * 3 >= han + latin) return 'zh';
  if (latin < 12) return undefined;
  return primary(detectLanguage(text.replace(/\p{Script=Han}/gu, ' ')) ?? 'en');
}

/**
 * The text without what no language writes: UUIDs, URLs and hex or digit-bearing tokens
 * (artefact ids, hashes, sizes). Their letters read as words otherwise: a UUID's "de" or "a" made
 * an English reply that quoted an id count as French.
 */
function withoutIdentifiers(text: string): string {
  return text
    .replace(/\b[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}\b/gi, ' ')
    .replace(/\b[a-z][a-z0-9+.-]*:\/\/\S+/gi, ' ')
    .replace(/[\p{Script=Latin}\p{N}_-]*\p{N}[\p{Script=Latin}\p{N}_-]*/gu, ' ');
}

/**
 * Replies in another language than the person's: per task, the person's language is the task's
 * (TaskCreated.language) and then that of the person's latest message delivered to it; each
 * agent reply (a committed step's text) written in another primary language is a switch. Main
 * replies answer one message each, in that message's language. Article §11.3: the English poster
 * series whose worker planned in Chinese.
 */
export function languageSwitches(events: readonly EventEnvelope[]): CountedMetric {
  const findings: CountedMetric['findings'] = [];
  const turns = turnTasks(events);
  const spoken = new Map<string, string>(); // task → the person's language
  const messageLanguage = new Map<string, string>();
  for (const e of events) {
    const taskId = idOf(e.metadata.streamId, 'task');
    switch (e.type) {
      case 'TaskCreated':
        if (taskId !== null) spoken.set(taskId, primary(dataOf<{ language: string }>(e).language));
        break;
      case 'MessageDeliveredToInbox':
        if (taskId !== null) spoken.set(taskId, primary(dataOf<{ language: string }>(e).language));
        break;
      case 'UserMessageReceived': {
        const m = dataOf<{ messageId: string; language: string }>(e);
        messageLanguage.set(m.messageId, primary(m.language));
        break;
      }
      case 'ModelStepCommitted': {
        const turnId = idOf(e.metadata.streamId, 'turn');
        const task = turnId === null ? undefined : turns.get(turnId);
        const expected = task === undefined ? undefined : spoken.get(task);
        const written = writtenLanguage(dataOf<{ reply: string }>(e).reply);
        if (expected !== undefined && written !== undefined && written !== expected)
          findings.push(finding(e, task ?? null, `replied in ${written}, the person speaks ${expected}`));
        break;
      }
      case 'MainReplied': {
        const reply = dataOf<{ messageId: string; text: string }>(e);
        const expected = messageLanguage.get(reply.messageId);
        const written = writtenLanguage(reply.text);
        if (expected !== undefined && written !== undefined && written !== expected)
          findings.push(finding(e, null, `main replied in ${written} to a message in ${expected}`));
        break;
      }
    }
  }
  return { count: findings.length, findings };
}
