/**
 * Splits projections into at most `count` groups, to rebuild each group on its own thread.
 * Projections reading the same stream categories stay together: they share one read of the log
 * (reading is a fifth of a rebuild). Those clusters go, largest first, to the group with the
 * fewest projections so far; ties keep the definitions' order, so the plan is deterministic.
 */
export function planRebuildGroups<T>(
  items: readonly T[],
  count: number,
  categoriesOf: (item: T) => readonly string[],
): T[][] {
  if (items.length === 0) return [];
  const clusters = new Map<string, T[]>();
  for (const item of items) {
    const key = [...new Set(categoriesOf(item))].sort().join(',');
    const cluster = clusters.get(key);
    if (cluster === undefined) clusters.set(key, [item]);
    else cluster.push(item);
  }
  const groups: T[][] = Array.from({ length: Math.max(1, Math.min(count, clusters.size)) }, () => []);
  // A stable sort: equal clusters keep the order of their first definition.
  const ordered = [...clusters.values()].sort((a, b) => b.length - a.length);
  for (const cluster of ordered) {
    let smallest = groups[0];
    for (const group of groups) if (group.length < smallest.length) smallest = group;
    smallest.push(...cluster);
  }
  return groups.filter((group) => group.length > 0);
}
