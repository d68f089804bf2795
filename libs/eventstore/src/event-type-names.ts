import { eventRegistry } from '@lomo/contracts';

/**
 * A type filter names current types, but older events are stored under former names and read
 * back as the current type: a filter on "TurnLeaseRenewed" must also match "TurnLeaseExtended".
 */
export function storedTypeNames(types: readonly string[]): string[] {
  const names = new Set<string>();
  for (const type of types) {
    names.add(type);
    for (const former of eventRegistry.get(type)?.formerly ?? []) names.add(former);
  }
  return [...names];
}
