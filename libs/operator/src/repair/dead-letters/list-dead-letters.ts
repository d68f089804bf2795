import type { Caller } from '@lomo/auth';
import { assertOperator } from '../../access/operator-access';
import { BadOperatorInputError, UnknownTargetError } from '../../errors';
import { isConsumerGroupId, KNOWN_CONSUMER_GROUPS } from '../relay/consumer-groups';
import {
  busDeadLetterRow,
  deadLetterSources,
  webhookDeadLetterRow,
  type CollectedDeadLetter,
  type DeadLetterRow,
  type DeadLetterSource,
} from './dead-letter-row';
import type { DeadLetterSources } from './dead-letter-sources';
import { redrivenBusLetterIds } from './redriven-ledger';

export interface DeadLetterFilter {
  source?: DeadLetterSource;
  /** A consumer group (bus and memory letters). */
  group?: string;
  workspaceId?: string;
  /** `open`: not redriven yet; `redriven`; `all` (default). */
  state?: 'open' | 'redriven' | 'all';
}

const WEBHOOK_PAGE = 100;

/**
 * Every dead letter in one list, oldest first: the bus's (each consumer group's; the memory
 * group's labelled `memory`) and the webhooks' of every workspace. System-wide, so operators only.
 */
export async function listDeadLetters(
  sources: DeadLetterSources,
  caller: Caller,
  filter: DeadLetterFilter = {},
): Promise<DeadLetterRow[]> {
  assertOperator(caller, 'listing dead letters');
  assertFilter(filter);
  const collected = await collectDeadLetters(sources, kindsOf(filter));
  if (filter.group !== undefined) assertKnownGroup(filter.group, collected);
  return collected.map((c) => c.row).filter((row) => matches(row, filter));
}

/** Both kinds (or one), oldest first. A bus letter recorded twice (an at-least-once write) is listed once. */
export async function collectDeadLetters(
  sources: DeadLetterSources,
  kinds: 'bus' | 'webhook' | 'all' = 'all',
): Promise<CollectedDeadLetter[]> {
  const out: CollectedDeadLetter[] = [];
  if (kinds !== 'webhook') {
    const [letters, redriven] = await Promise.all([
      sources.bus.readDeadLetters(),
      redrivenBusLetterIds(sources.events),
    ]);
    const seen = new Set<string>();
    for (const letter of letters) {
      const collected = busDeadLetterRow(letter, false);
      if (seen.has(collected.row.id)) continue;
      seen.add(collected.row.id);
      out.push(redriven.has(collected.row.id) ? busDeadLetterRow(letter, true) : collected);
    }
  }
  if (kinds !== 'bus' && sources.webhooks !== undefined) {
    let after: string | undefined;
    do {
      const page = await sources.webhooks.deadLettersOfEveryWorkspace({ first: WEBHOOK_PAGE, after });
      out.push(...page.items.map(webhookDeadLetterRow));
      after = page.hasMore && page.endCursor !== null ? page.endCursor : undefined;
    } while (after !== undefined);
  }
  return out.sort((a, b) => a.row.deadLetteredAt.localeCompare(b.row.deadLetteredAt));
}

/** Which stores a selection needs: the webhooks' only for webhook letters, the bus's only for a group's. */
export function kindsOf(filter: Pick<DeadLetterFilter, 'source' | 'group'>): 'bus' | 'webhook' | 'all' {
  if (filter.source === 'webhook') return 'webhook';
  return filter.source !== undefined || filter.group !== undefined ? 'bus' : 'all';
}

export function assertFilter(filter: DeadLetterFilter): void {
  if (filter.state !== undefined && !['open', 'redriven', 'all'].includes(filter.state))
    throw new BadOperatorInputError(`unknown state "${String(filter.state)}": one of open, redriven, all`);
  if (filter.source !== undefined && !deadLetterSources.includes(filter.source))
    throw new BadOperatorInputError(
      `unknown source "${String(filter.source)}": one of ${deadLetterSources.join(', ')}`,
    );
  if (filter.group !== undefined && !isConsumerGroupId(filter.group))
    throw new UnknownTargetError('consumer group', filter.group);
  if (filter.group !== undefined && filter.source === 'webhook')
    throw new BadOperatorInputError('webhook dead letters have no consumer group: give --source or --group, not both');
}

/** A group is known when the apps run it or it has dead letters; anything else is a typo. */
export function assertKnownGroup(group: string, collected: readonly CollectedDeadLetter[]): void {
  const known =
    (KNOWN_CONSUMER_GROUPS as readonly string[]).includes(group) || collected.some((c) => c.row.group === group);
  if (!known) throw new UnknownTargetError('consumer group', group);
}

function matches(row: DeadLetterRow, filter: DeadLetterFilter): boolean {
  if (filter.source !== undefined && row.source !== filter.source) return false;
  if (filter.group !== undefined && row.group !== filter.group) return false;
  if (filter.workspaceId !== undefined && row.workspaceId !== filter.workspaceId) return false;
  if (filter.state === 'open') return !row.redriven;
  if (filter.state === 'redriven') return row.redriven;
  return true;
}
