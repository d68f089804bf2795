import { eventRegistry, streamCategories, type EventEnvelope } from '@lomo/contracts';
import type { EventFilter } from '@lomo/eventstore';
import { canSeeEvent, type Caller } from '@lomo/auth';
import type { WebhookRegistrant } from './webhook-documents';

const categories: ReadonlySet<string> = new Set(streamCategories);

/** Why a webhook's event-type entry is refused, or undefined: a registered type or a stream category. */
export function eventTypeProblem(entry: string): string | undefined {
  if (eventRegistry.has(entry) || categories.has(entry)) return undefined;
  return `"${entry}" is neither a registered event type nor a stream category (${streamCategories.join(', ')})`;
}

/** Categories whose stream ids start with the workspace id, so the store can filter by tenant. */
const workspaceKeyed: ReadonlySet<string> = new Set(['main', 'memory']);

/**
 * The caller a webhook's deliveries are decided for: its registrant, in the webhook's workspace.
 * Without one (registered before registrants were recorded) a person of nobody: the workspace's
 * shared streams pass, no one's main line or memory does.
 */
export function webhookAudience(workspaceId: string, registrant: WebhookRegistrant | null): Caller {
  return registrant === null
    ? { tokenId: '', tokenName: 'webhook', workspaceId, userId: '', kind: 'person' }
    : {
        tokenId: registrant.tokenId,
        tokenName: 'webhook',
        workspaceId,
        userId: registrant.userId,
        kind: registrant.kind,
      };
}

/**
 * Which events a webhook receives: its workspace's events whose type, or whose stream's category,
 * it registered, and that its registrant may see (canSeeEvent, libs/auth visibility-policy.ts: a
 * webhook one person registered never delivers another person's main line). The store filter
 * narrows the read; `matches` is the exact rule, applied after reading because the store cannot
 * filter on metadata (workspaceId) or on a mix of types and categories (its filter ANDs the two).
 */
export class EventSelection {
  private readonly types: ReadonlySet<string>;
  private readonly categories: ReadonlySet<string>;
  private readonly audience: Caller;

  constructor(
    readonly workspaceId: string,
    entries: readonly string[],
    registrant: WebhookRegistrant | null = null,
  ) {
    this.types = new Set(entries.filter((e) => !categories.has(e)));
    this.categories = new Set(entries.filter((e) => categories.has(e)));
    this.audience = webhookAudience(workspaceId, registrant);
  }

  storeFilter(): EventFilter {
    if (this.categories.size === 0) return { eventTypes: [...this.types] };
    const wanted = new Set(this.categories);
    for (const type of this.types) {
      const category = eventRegistry.get(type)?.category;
      if (category !== undefined) wanted.add(category);
    }
    return { streamPrefixes: [...wanted].map((c) => this.prefixOf(c)) };
  }

  matches(event: EventEnvelope): boolean {
    if (event.metadata.workspaceId !== this.workspaceId) return false;
    if (!canSeeEvent(this.audience, event)) return false;
    if (this.types.has(event.type)) return true;
    const dash = event.metadata.streamId.indexOf('-');
    return dash > 0 && this.categories.has(event.metadata.streamId.slice(0, dash));
  }

  private prefixOf(category: string): string {
    return workspaceKeyed.has(category) ? `${category}-${this.workspaceId}.` : `${category}-`;
  }
}
