import {
  itemReview,
  noticesConsumedAt,
  type ChecklistItem,
  type ChangeNotice,
  type ExistingTask,
  type ExistingTurn,
  type InboxItem,
} from '@lomo/domain';
import type { ChatMessage, ToolSpec } from '@lomo/llm';
import { renderCallOutcome } from './render-call-outcome';
import { SYSTEM_RULES } from './system-rules';

export interface ContextInput {
  task: ExistingTask;
  turn: ExistingTurn;
  /** The step being built (one after the last committed step). */
  step: number;
  /** Items this step claimed, in claim order. */
  claimed: readonly InboxItem[];
  /** Change notices this step consumed with its claim (someone else wrote an artefact the task saw). */
  notices?: readonly ChangeNotice[];
  tools: readonly ToolSpec[];
}

/** Exactly what the model is sent for one step; it is also what gets archived. */
export interface Prompt {
  messages: ChatMessage[];
  tools: readonly ToolSpec[];
}

/**
 * Builds a step's prompt in cache-friendly order: system rules and tool specs (identical for
 * every step), then the task's goal and state (stable within a turn), then recent history, then
 * this step's claimed items. Only the last `historySteps` steps are rendered, and each is found
 * by index, so building step 1 000 costs what building step 10 does.
 */
export class ContextBuilder {
  constructor(private readonly historySteps: number) {}

  build(input: ContextInput): Prompt {
    const messages: ChatMessage[] = [{ role: 'system', content: SYSTEM_RULES }];
    const first = Math.max(1, input.step - this.historySteps);
    messages.push({ role: 'system', content: describeTask(input.task, first - 1) });
    for (let s = first; s < input.step; s += 1) this.renderStep(input, s, messages);
    // After the history and before the new messages: the task's goal stays a stable prefix, and
    // the agent reads what moved under it before what the person says now.
    if (input.notices !== undefined && input.notices.length > 0)
      messages.push({ role: 'system', content: describeNotices(input.notices) });
    for (const item of input.claimed) messages.push({ role: 'user', content: item.text });
    return { messages, tools: input.tools };
  }

  private renderStep({ task, turn }: ContextInput, step: number, out: ChatMessage[]): void {
    const committed = turn.steps[step - 1];
    if (committed === undefined) return;
    // The notices an earlier step was shown stay where they were, so each step's prompt extends
    // the previous one (prompt caching) and the model sees what it was told.
    const shown = noticesConsumedAt(task, turn.turnId, step);
    if (shown.length > 0) out.push({ role: 'system', content: describeNotices(shown) });
    for (const itemId of committed.consumedItemIds) {
      const item = task.inbox[itemId];
      if (item !== undefined) out.push({ role: 'user', content: item.text });
    }
    const calls = committed.calls;
    out.push({
      role: 'assistant',
      content: committed.reply,
      ...(calls.length > 0
        ? { toolCalls: calls.map((c) => ({ id: c.callId, name: c.tool, arguments: JSON.stringify(c.arguments) })) }
        : {}),
    });
    for (const call of calls) out.push({ role: 'tool', toolCallId: call.callId, content: renderCallOutcome(call) });
  }
}

function describeTask(task: ExistingTask, omittedSteps: number): string {
  const lines = [`Task goal: ${task.goal}`, `Language of the person: ${task.language}`, `Task kind: ${task.kind}`];
  lines.push(`Autonomy: ${AUTONOMY[task.autonomy]}`);
  const budgets = planBudgetLine(task);
  if (budgets !== null) lines.push(budgets);
  if (task.brief !== null) lines.push(`Brief (version ${task.brief.version}):\n${task.brief.text}`);
  if (task.checklist.length > 0) {
    lines.push('Checklist:');
    for (const item of task.checklist)
      lines.push(
        `- [${item.status}] ${item.itemId}: ${item.title}${outputOf(item)}${linksOf(item)}${reviewOf(task, item)}`,
      );
  }
  if (omittedSteps > 0) lines.push(`(${omittedSteps} earlier step(s) of this turn are not shown.)`);
  return lines.join('\n');
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
