/**
 * The plan policy's reading of a checklist (README.md beside this file, "Plans"): which item is
 * next, what working it means, and what checklist.plan's JSON Schema lets the policy say about
 * its items. Lines and schemas only; no sentences.
 */
import type { ToolSpec } from '../model-provider.port';
import { isRecord } from './json-values';
import type { OfflineMediaKind } from './media-intent';
import type { ChecklistLine, ItemOutput } from './plan-context';
import type { PlanKind } from './plan-kinds';
import { PLANS, plannedItem } from './plan-templates';

/** Skipped, or done with its review (if it has one) approved or chosen: what comes after may run. */
export const settled = (item: ChecklistLine) =>
  item.status === 'skipped' ||
  (item.status === 'done' &&
    (item.review === undefined || item.review.state === 'approved' || item.review.state === 'chose'));

/**
 * The first item that is pending or in progress and whose dependencies are settled (a reviewed
 * one approved or chosen). The lines show no dependencies: every earlier item counts as one,
 * which is what the policy's own plans are (chains).
 */
export function nextWorkable(checklist: readonly ChecklistLine[]): ChecklistLine | undefined {
  return checklist.find(
    (item, index) =>
      (item.status === 'pending' || item.status === 'in_progress') && checklist.slice(0, index).every(settled),
  );
}

const MEDIA_TITLE: ReadonlyArray<[OfflineMediaKind, RegExp]> = [
  ['video', /(?<!\p{L})(?:shots?|clips?|footage|videos?)(?!\p{L})|镜头|鏡頭|视频|視頻/iu],
  ['image', /(?<!\p{L})(?:posters?|images?|pictures?|illustrations?)(?!\p{L})|海报|海報|图片|圖片/iu],
];

/**
 * What working an item means: the output its line declares (the task's truth: the person may
 * have edited the plan), else the policy's own plan of that id, else a guess from its title.
 */
export function outputOf(item: ChecklistLine): ItemOutput {
  if (item.output !== undefined) return item.output;
  const planned = plannedItem(item.itemId);
  if (planned) return planned.output;
  const media = MEDIA_TITLE.find(([, pattern]) => pattern.test(item.title))?.[0];
  return media ? { kind: 'media', media, count: 1 } : { kind: 'artifact' };
}

/** The plan kind whose items the checklist holds (a re-plan may have added some). */
export function kindOfChecklist(checklist: readonly ChecklistLine[]): PlanKind | undefined {
  const ids = new Set(checklist.map((i) => i.itemId));
  return (['video', 'posterSeries', 'storyboard'] as const).find((kind) =>
    PLANS[kind].every((planned) => ids.has(planned.itemId)),
  );
}

/**
 * checklist.plan's items take `field` (its JSON Schema says so): older tool sets have no
 * `needsConfirmation` or `output`, and an argument the schema does not have would be refused.
 */
export function planItemOffers(tools: readonly ToolSpec[], planTool: string, field: string): boolean {
  const plan = tools.find((t) => t.name === planTool);
  const items = isRecord(plan?.parameters.properties) ? plan.parameters.properties.items : undefined;
  const item = isRecord(items) && isRecord(items.items) ? items.items : undefined;
  return isRecord(item?.properties) && field in item.properties;
}
