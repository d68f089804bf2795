import {
  briefForContext,
  checklistTitleLeftOut,
  itemReview,
  type ChangeNotice,
  type ChecklistItem,
  type ExistingTask,
} from '@lomo/domain';
import { constraintsInForce } from './constraints';

/**
 * The dynamic tail (article §6.4): what the task is and where it stands, from the persisted state
 * and not from the model's own summaries. The offline policy reads its `Task goal:` message and
 * its checklist lines (libs/llm/src/offline/README.md).
 */
export function describeTask(task: ExistingTask, extra: TailExtras): string {
  // The goal is the first message's words: a forgotten first message takes them along.
  const goal = task.excluded.messageIds.includes(task.originMessageId) ? FORGOTTEN_GOAL : task.goal;
  const lines = [`Task goal: ${goal}`];
  // Drills' no_language_carry mutation leaves the person's language out (test-control README).
  if (extra.withheld?.language !== true) lines.push(`Language of the person: ${task.language}`);
  lines.push(`Task kind: ${task.kind}`);
  lines.push(`Autonomy: ${AUTONOMY[task.autonomy]}`);
  const budgets = planBudgetLine(task);
  if (budgets !== null) lines.push(budgets);
  const brief = briefForContext(task);
  if (brief !== null) lines.push(`Brief (version ${brief.version}):\n${'text' in brief ? brief.text : LEFT_OUT_BRIEF}`);
  if (task.checklist.length > 0) {
    lines.push('Checklist:');
    for (const item of task.checklist)
      lines.push(
        `- [${item.status}] ${item.itemId}: ${checklistTitleLeftOut(task, item) ? LEFT_OUT_TITLE : item.title}${outputOf(item)}${extra.withheld?.taskArtifacts === true ? '' : linksOf(item)}${reviewOf(task, item)}`,
      );
  }
  const constraints = constraintsInForce(task);
  if (constraints.length > 0) {
    lines.push('Constraints in force (the person’s latest word on each):');
    for (const c of constraints) lines.push(`- ${c.subject}: ${oneLine(c.statement)}`);
  }
  const waiting = Object.values(task.checkpoints).filter((c) => c.resolution === null);
  if (waiting.length > 0)
    lines.push(`Waiting on the person: ${waiting.map((c) => `${c.kind} card ${c.checkpointId}`).join(', ')}`);
  lines.push(
    `Tool domains you can call now: ${extra.domains.join(', ')}${extra.loadable.length > 0 ? ` (load others with tools.load: ${extra.loadable.join(', ')})` : ''}`,
  );
  return lines.join('\n');
}

/** Never any of its words: the brief an excluded step wrote relied on something forgotten. */
export const LEFT_OUT_BRIEF =
  '(left out: it was written from something the person asked to forget; ask for the direction again or write a new brief)';

/** A checklist item's title planned by an excluded step: its id, status and evidence stay. */
export const LEFT_OUT_TITLE = '(title left out: planned from something the person asked to forget)';

const FORGOTTEN_GOAL =
  '(left out: the person asked to forget the message this task started from; follow the brief and the latest messages)';

export interface TailExtras {
  /** The domains visible at this step. */
  domains: readonly string[];
  /** The domains a tools.load call could add. */
  loadable: readonly string[];
  /** Left out by a drill's mutation switch; absent in production. */
  withheld?: Withheld;
}

/**
 * Parts of the context a drill's mutation switch leaves out (libs/platform/src/test-control/
 * README.md): `language` (no_language_carry), `taskArtifacts`, the checklist's linked artefacts
 * (no_artifact_reuse), `changeNotices` (no_change_notice).
 */
export interface Withheld {
  language?: boolean;
  taskArtifacts?: boolean;
  changeNotices?: boolean;
}

/** How far the agent goes by itself: what the model is told, the runtime enforces (libs/generation). */
const AUTONOMY: Record<ExistingTask['autonomy'], string> = {
  manual: 'manual (every paid call waits for the person’s approval of its own card)',
  assisted: 'assisted (paid calls within the plan budget the person approved run; beyond it the person is asked)',
  autonomous:
    'autonomous (paid calls run within the plan budget, and beyond it within the person’s auto-approve limits; reviews still wait for the person)',
};

/** The plan budgets the person approved, per currency. */
function planBudgetLine(task: ExistingTask): string | null {
  if (task.budgets.length === 0) return null;
  const byCurrency = new Map<string, number>();
  for (const b of task.budgets) byCurrency.set(b.currency, (byCurrency.get(b.currency) ?? 0) + b.amountMinor);
  const amounts = [...byCurrency].map(([currency, minor]) => `${(minor / 100).toFixed(2)} ${currency}`);
  return `Plan budget approved by the person: ${amounts.join(', ')}`;
}

/**
 * ` {output: …}` after an item that declares what it delivers (artifact, media <kind> x<count>,
 * decision), and ` {artefacts: <id>, …}` after one with linked artefacts, before its review
 * suffix. Parsed by the offline model too (libs/llm/src/offline/README.md).
 */
function outputOf(item: ChecklistItem): string {
  const output = item.output;
  if (output === null) return '';
  return output.kind === 'media' ? ` {output: media ${output.media} x${output.count}}` : ` {output: ${output.kind}}`;
}

function linksOf(item: ChecklistItem): string {
  return item.linkedArtifactIds.length === 0 ? '' : ` {artefacts: ${item.linkedArtifactIds.join(', ')}}`;
}

/**
 * ` {review: …}` after an item the person reviews: needed, open (a card waits), approved, chose
 * <option>, adjust: <the person's note>, rejected: <note>. Parsed by the offline model too
 * (libs/llm/src/offline/README.md).
 */
function reviewOf(task: ExistingTask, item: ChecklistItem): string {
  const review = itemReview(task, item);
  switch (review.state) {
    case 'not_needed':
      return '';
    case 'needed':
    case 'open':
      return ` {review: ${review.state}}`;
    case 'approved':
      return review.choice === null ? ' {review: approved}' : ` {review: chose ${review.choice}}`;
    case 'adjust':
    case 'rejected':
      return ` {review: ${review.state}: ${oneLine(review.note ?? '')}}`;
  }
}

const oneLine = (text: string) => text.replace(/\s+/g, ' ').trim();

/**
 * "Workspace changes since you last looked": one line per artefact with its version span, the
 * nodes and the summary of what changed. The content itself is not inlined: the agent re-reads
 * the artefact on demand (document.read / flow.read), so a large edit costs a line here.
 */
export function describeNotices(notices: readonly ChangeNotice[]): string {
  const lines = ['Workspace changes since you last looked (re-read an artefact before editing it):'];
  for (const n of notices) {
    const details = [n.nodes.length > 0 ? `nodes ${n.nodes.join(', ')}` : '', n.summary, authorOf(n.by)].filter(
      (d) => d !== '',
    );
    lines.push(`- artifact ${n.artifactId} v${n.fromVersion}→v${n.toVersion} (${details.join('; ')})`);
  }
  return lines.join('\n');
}

function authorOf(by: ChangeNotice['by']): string {
  switch (by.kind) {
    case 'person':
      return `by the person ${by.userId}`;
    case 'agent':
      return `by task ${by.taskId}`;
    case 'generation':
      return `by generation job ${by.jobId}`;
  }
}
