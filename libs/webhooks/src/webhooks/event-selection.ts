import { eventRegistry, streamCategories, type EventEnvelope } from '@lomo/contracts';
import type { EventFilter } from '@lomo/eventstore';

const categories: ReadonlySet<string> = new Set(streamCategories);

/** Why a webhook's event-type entry is refused, or undefined: a registered type or a stream category. */
export function eventTypeProblem(entry: string): string | undefined {
  if (eventRegistry.has(entry) || categories.has(entry)) return undefined;
  return `"${entry}" is neither a registered event type nor a stream category (${streamCategories.join(', ')})`;
}

/** Categories whose stream ids start with the workspace id, so the store can filter by tenant. */
const workspaceKeyed: ReadonlySet<string> = new Set(['main', 'memory']);

/**
 * Which events a webhook receives: its workspace's events whose type, or whose stream's category,
 * it registered. The store filter narrows the read; `matches` is the exact rule, applied after
 * reading because the store cannot filter on metadata (workspaceId) or on a mix of types and
 * categories (its filter ANDs the two).
 */
export class EventSelection {
  private readonly types: ReadonlySet<string>;
  private readonly categories: ReadonlySet<string>;

  constructor(
    readonly workspaceId: string,
    entries: readonly string[],
  ) {
    this.types = new Set(entries.filter((e) => !categories.has(e)));
    this.categories = new Set(entries.filter((e) => categories.has(e)));
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
    if (this.types.has(event.type)) return true;
    const dash = event.metadata.streamId.indexOf('-');
    return dash > 0 && this.categories.has(event.metadata.streamId.slice(0, dash));
  }

  private prefixOf(category: string): string {
    return workspaceKeyed.has(category) ? `${category}-${this.workspaceId}.` : `${category}-`;
  }
}
