import type { Caller } from '@lomo/auth';
import { redriveMessage, type DeadLetter } from '@lomo/bus';
import type { Clock, IdGenerator } from '@lomo/contracts';
import { assertOperator } from '../../access/operator-access';
import { recordOperatorAction, type OperatorActionInput } from '../../audit/record-operator-action';
import { BadOperatorInputError, ConfirmationRequiredError, UnknownTargetError } from '../../errors';
import { DeadLetterAlreadyRedrivenError, DeadLetterNotRedrivableError } from './dead-letter-errors';
import type { CollectedDeadLetter, DeadLetterSource } from './dead-letter-row';
import type { DeadLetterSources } from './dead-letter-sources';
import { assertFilter, assertKnownGroup, collectDeadLetters, kindsOf } from './list-dead-letters';

export interface RedriveRequest {
  /** These letters (ids from `dlq list`); or else every open letter of `source` and/or `group`. */
  ids?: readonly string[];
  source?: DeadLetterSource;
  group?: string;
  /** A redrive is a write: refused unless true. */
  confirm: boolean;
  via?: OperatorActionInput['via'];
}

export interface RedriveResult {
  /** Sent again: a bus letter published back to its topic for its group, a webhook letter's redelivery requested. */
  redriven: Array<{ id: string; source: DeadLetterSource }>;
  /** Could not be sent (the bus or the notifier's store refused); they stay open. */
  failed: Array<{ id: string; source: DeadLetterSource; error: string }>;
  /** The OperatorActionRecorded events written (one per group, one per webhook workspace). */
  actionIds: string[];
}

/** OperatorActionRecorded details hold at most this many ids per list. */
const IDS_PER_RECORD = 1_000;

/**
 * Sends dead letters back, from any process. A bus letter is published again to its topic with
 * the redrive header naming its group (libs/bus redrive-header.ts): that group handles it with
 * its usual retries and dead letter, every other group passes over it. A webhook letter's
 * redelivery is requested through the notifier's documents, which every notifier instance
 * polls. Each group's (each workspace's) redrive is then recorded as an operator action naming
 * the letters; the record is what marks a bus letter as redriven.
 *
 * Refused, with nothing changed: a caller that is no operator, no selection or two kinds of
 * selection, an unknown source, group or id, a letter already redriven
 * (DeadLetterAlreadyRedrivenError: a redriven copy that failed again is a new letter to redrive),
 * and a missing confirmation.
 */
export async function redriveDeadLetters(
  sources: DeadLetterSources,
  caller: Caller,
  request: RedriveRequest,
  deps: { clock: Clock; ids: IdGenerator },
): Promise<RedriveResult> {
  assertOperator(caller, 'redriving dead letters');
  const selected = await select(sources, request);
  if (request.confirm !== true) throw new ConfirmationRequiredError(`redriving ${selected.length} dead letter(s)`);
  const via = request.via ?? { tool: 'cli', command: 'dlq redrive' };
  const result: RedriveResult = { redriven: [], failed: [], actionIds: [] };
  const record = async (input: Omit<OperatorActionInput, 'caller' | 'via'>) =>
    result.actionIds.push((await recordOperatorAction(sources.events, { caller, via, ...input }, deps)).actionId);

  for (const [group, letters] of groupBy(
    selected.filter((c) => c.letter !== undefined),
    (c) => c.row.group ?? '',
  )) {
    for (const chunk of chunks(letters, IDS_PER_RECORD)) {
      const outcome = await publishBack(sources, chunk);
      result.redriven.push(...outcome.sent.map((c) => ({ id: c.row.id, source: c.row.source })));
      result.failed.push(...outcome.failed.map(({ c, error }) => ({ id: c.row.id, source: c.row.source, error })));
      await record({
        action: 'bus_dead_letters_redriven',
        outcome: outcomeOf(outcome.sent.length, outcome.failed.length),
        details: {
          group,
          source: chunk[0].row.source,
          ids: outcome.sent.map((c) => c.row.id),
          failed: outcome.failed.map(({ c }) => c.row.id),
        },
      });
    }
  }

  const webhookLetters = selected.filter((c) => c.row.source === 'webhook');
  for (const [workspaceId, letters] of groupBy(webhookLetters, (c) => c.row.workspaceId ?? '')) {
    for (const chunk of chunks(letters, IDS_PER_RECORD)) {
      const outcome = await requestRedeliveries(sources, workspaceId, chunk);
      result.redriven.push(...outcome.sent.map((c) => ({ id: c.row.id, source: c.row.source })));
      result.failed.push(...outcome.failed.map(({ c, error }) => ({ id: c.row.id, source: c.row.source, error })));
      await record({
        action: 'webhook_dead_letters_redriven',
        targetWorkspaceId: workspaceId,
        outcome: outcomeOf(outcome.sent.length, outcome.failed.length),
        details: {
          webhookIds: [...new Set(chunk.map((c) => c.row.webhookId ?? ''))],
          ids: outcome.sent.map((c) => c.row.id),
          failed: outcome.failed.map(({ c }) => c.row.id),
        },
      });
    }
  }
  return result;
}

/** The letters the request names, all checked before anything is sent. */
async function select(sources: DeadLetterSources, request: RedriveRequest): Promise<CollectedDeadLetter[]> {
  const byIds = request.ids !== undefined;
  const byFilter = request.source !== undefined || request.group !== undefined;
  if (byIds === byFilter)
    throw new BadOperatorInputError('name the dead letters to redrive: ids, or a source and/or a group (not both)');
  if (byIds) return selectByIds(sources, [...new Set(request.ids)]);
  assertFilter(request);
  const collected = await collectDeadLetters(sources, kindsOf(request));
  if (request.group !== undefined) assertKnownGroup(request.group, collected);
  return collected.filter(
    (c) =>
      c.row.redrivable &&
      (request.source === undefined || c.row.source === request.source) &&
      (request.group === undefined || c.row.group === request.group),
  );
}

async function selectByIds(sources: DeadLetterSources, ids: readonly string[]): Promise<CollectedDeadLetter[]> {
  if (ids.length === 0) throw new BadOperatorInputError('name at least one dead letter id');
  const kinds = new Set(ids.map((id) => id.split(':')[0]));
  const collected = await collectDeadLetters(
    sources,
    kinds.size === 1 && kinds.has('bus') ? 'bus' : kinds.size === 1 && kinds.has('webhook') ? 'webhook' : 'all',
  );
  const byId = new Map(collected.map((c) => [c.row.id, c]));
  return ids.map((id) => {
    const found = byId.get(id);
    if (found === undefined) throw new UnknownTargetError('dead letter', id);
    if (found.row.redriven) throw new DeadLetterAlreadyRedrivenError(id, found.row.status);
    if (!found.row.redrivable)
      throw new DeadLetterNotRedrivableError(
        id,
        found.row.source === 'webhook' ? `it is ${found.row.status}` : 'the bus could not decode the message',
      );
    return found;
  });
}

type Outcome = { sent: CollectedDeadLetter[]; failed: Array<{ c: CollectedDeadLetter; error: string }> };

/** One publish per topic: a topic's letters go back (in their order) or fail together. */
async function publishBack(sources: DeadLetterSources, letters: readonly CollectedDeadLetter[]): Promise<Outcome> {
  const outcome: Outcome = { sent: [], failed: [] };
  for (const [topic, ofTopic] of groupBy(letters, (c) => c.row.topic ?? '')) {
    try {
      await sources.bus.publish(
        topic,
        ofTopic.map((c) => redriveMessage(c.letter as DeadLetter, c.row.id)),
      );
      outcome.sent.push(...ofTopic);
    } catch (error) {
      outcome.failed.push(...ofTopic.map((c) => ({ c, error: messageOf(error) })));
    }
  }
  return outcome;
}

async function requestRedeliveries(
  sources: DeadLetterSources,
  workspaceId: string,
  letters: readonly CollectedDeadLetter[],
): Promise<Outcome> {
  const outcome: Outcome = { sent: [], failed: [] };
  const webhooks = sources.webhooks;
  for (const c of letters) {
    try {
      if (webhooks === undefined) throw new Error('the webhook store is not open');
      await webhooks.redeliver(workspaceId, c.row.id.slice('webhook:'.length));
      outcome.sent.push(c);
    } catch (error) {
      // Another operator's request (or the engine) got there first: it stays as they left it.
      outcome.failed.push({ c, error: messageOf(error) });
    }
  }
  return outcome;
}

const outcomeOf = (sent: number, failed: number) => (failed === 0 ? 'completed' : sent === 0 ? 'failed' : 'partial');

const messageOf = (error: unknown) => (error instanceof Error ? error.message : String(error)).slice(0, 500);

function groupBy<T>(items: readonly T[], keyOf: (item: T) => string): Map<string, T[]> {
  const groups = new Map<string, T[]>();
  for (const item of items) groups.set(keyOf(item), [...(groups.get(keyOf(item)) ?? []), item]);
  return groups;
}

function chunks<T>(items: readonly T[], size: number): T[][] {
  const out: T[][] = [];
  for (let i = 0; i < items.length; i += size) out.push(items.slice(i, i + size));
  return out;
}
