import type { ChecklistItem, ExistingTask, HistoryPoint, LoadableDomain, ToolDomainName } from '@lomo/domain';
import { comparePoints } from './history';

/** Canonical order, as the tool registry sorts specs (libs/tools/src/tool.port.ts TOOL_DOMAINS). */
const ORDER: readonly ToolDomainName[] = ['core', 'image', 'video', 'audio', '3d', 'document', 'asset', 'flow'];

/** The domain whose tools deliver an item's declared output. */
function domainOfOutput(item: ChecklistItem): LoadableDomain | undefined {
  const output = item.output;
  if (output === null) return undefined;
  if (output.kind === 'media') return output.media;
  if (output.kind === 'artifact') return 'document';
  return undefined;
}

/** Worked on now: in progress, or pending with everything it depends on done or skipped. */
function atHand(task: ExistingTask, item: ChecklistItem): boolean {
  if (item.status === 'in_progress') return true;
  if (item.status !== 'pending') return false;
  return item.dependsOn.every((id) => {
    const dependency = task.checklist.find((i) => i.itemId === id);
    return dependency !== undefined && (dependency.status === 'done' || dependency.status === 'skipped');
  });
}

/**
 * The tool domains the model may call at this step (article §6.2): core always, the domains the
 * checklist's current stage needs (an item at hand that delivers media or a document), and the
 * domains the model asked for with `tools.load` (unloaded at a compression boundary). In order.
 * Visibility never grants execution: the ledger refuses a call outside these, and authorization
 * applies to the rest.
 */
export function visibleDomains(task: ExistingTask): ToolDomainName[] {
  const wanted = new Set<ToolDomainName>(['core', ...task.loadedDomains]);
  for (const item of task.checklist) {
    if (!atHand(task, item)) continue;
    const domain = domainOfOutput(item);
    if (domain !== undefined) wanted.add(domain);
  }
  return ORDER.filter((d) => wanted.has(d));
}

/**
 * Domains the model loaded that the plan's current stage does not need, asked for within the span
 * a compression summarizes (at or before `upTo`): unloaded at that boundary. One asked for after
 * it (in the steps still shown in full) stays, so a compression never takes back a fresh load.
 */
export function unneededLoadedDomains(task: ExistingTask, upTo: HistoryPoint): LoadableDomain[] {
  const needed = new Set<ToolDomainName>();
  for (const item of task.checklist) {
    const domain = atHand(task, item) ? domainOfOutput(item) : undefined;
    if (domain !== undefined) needed.add(domain);
  }
  return task.loadedDomains.filter((d) => {
    const at = task.domainLoads[d];
    return !needed.has(d) && (at === undefined || comparePoints(task.turns, at, upTo) <= 0);
  });
}
