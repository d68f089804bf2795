import type { ChatMessage, ModelProvider } from '@lomo/llm';
import type { HistoryStep } from './history';

/**
 * Writes history segments (article §6.3): a span of steps, or earlier segments merged into one.
 * `withdrawn`: statements of constraints the person replaced; a summary never repeats them.
 */
export interface HistorySummarizer {
  readonly kind: 'extractive' | 'model';
  summarizeSteps(steps: readonly HistoryStep[], withdrawn: readonly string[]): Promise<string>;
  mergeSegments(texts: readonly string[], withdrawn: readonly string[]): Promise<string>;
}

const PERSON = 'The person said:';
const ACTIONS = 'Actions:';
const LAST_REPLY = 'Last reply:';
const MAX_QUOTE = 2_000;
const MAX_REPLY = 300;

const quote = (text: string) => `- "${oneLine(text).slice(0, MAX_QUOTE)}"`;
const oneLine = (text: string) => text.replace(/\s+/g, ' ').trim();
const redact = (text: string, withdrawn: readonly string[]) =>
  withdrawn.reduce((t, statement) => t.split(statement).join('[changed later]'), text);

/**
 * The deterministic summarizer (the offline default, and the fallback when a model summary
 * fails): every word the person said in the span, verbatim (their constraints and decisions are
 * what must survive compression), the tools used with their outcomes counted, and the model's
 * last reply cut short. Merging keeps every quote once, adds the counts and keeps the last reply.
 */
export class ExtractiveSummarizer implements HistorySummarizer {
  readonly kind = 'extractive' as const;

  summarizeSteps(steps: readonly HistoryStep[], withdrawn: readonly string[]): Promise<string> {
    const quotes: string[] = [];
    const actions = new Map<string, number>();
    let reply = '';
    const toolOf = new Map<string, string>();
    for (const step of steps)
      for (const m of step.messages) {
        if (m.role === 'user') quotes.push(quote(redact(m.content, withdrawn)));
        if (m.role === 'assistant') {
          if (m.content.trim() !== '') reply = m.content;
          for (const c of m.toolCalls ?? []) toolOf.set(c.id, c.name);
        }
        if (m.role === 'tool') {
          const key = `${toolOf.get(m.toolCallId) ?? 'tool'} ${outcomeOf(m.content)}`;
          actions.set(key, (actions.get(key) ?? 0) + 1);
        }
      }
    return Promise.resolve(render(quotes, actions, redact(reply, withdrawn)));
  }

  mergeSegments(texts: readonly string[], withdrawn: readonly string[]): Promise<string> {
    const quotes: string[] = [];
    const actions = new Map<string, number>();
    let reply = '';
    for (const text of texts) {
      const parsed = parse(redact(text, withdrawn));
      for (const q of parsed.quotes) if (!quotes.includes(q)) quotes.push(q);
      for (const [k, n] of parsed.actions) actions.set(k, (actions.get(k) ?? 0) + n);
      if (parsed.reply !== '') reply = parsed.reply;
    }
    return Promise.resolve(render(quotes, actions, reply));
  }
}

function outcomeOf(content: string): string {
  try {
    const parsed = JSON.parse(content) as { ok?: boolean; error?: { code?: string }; outcome?: string };
    if (parsed.ok === true) return 'ok';
    if (parsed.error?.code !== undefined) return `error ${parsed.error.code}`;
    return parsed.outcome ?? 'error';
  } catch {
    return 'ok';
  }
}

function render(quotes: readonly string[], actions: ReadonlyMap<string, number>, reply: string): string {
  const lines: string[] = [];
  if (quotes.length > 0) lines.push(PERSON, ...quotes);
  if (actions.size > 0) lines.push(ACTIONS, ...[...actions].map(([k, n]) => `- ${k} ×${n}`));
  if (reply.trim() !== '') lines.push(`${LAST_REPLY} ${oneLine(reply).slice(0, MAX_REPLY)}`);
  return lines.length === 0 ? 'Nothing was said or done in these steps.' : lines.join('\n');
}

/** Reads back a segment this summarizer wrote (for merges); a model's text is kept as one quote-less block. */
function parse(text: string): { quotes: string[]; actions: Map<string, number>; reply: string } {
  const quotes: string[] = [];
  const actions = new Map<string, number>();
  let reply = '';
  let section: 'person' | 'actions' | null = null;
  for (const line of text.split('\n')) {
    if (line === PERSON) section = 'person';
    else if (line === ACTIONS) section = 'actions';
    else if (line.startsWith(LAST_REPLY)) reply = line.slice(LAST_REPLY.length).trim();
    else if (section === 'person' && line.startsWith('- "')) quotes.push(line);
    else if (section === 'actions' && line.startsWith('- ')) {
      const found = /^- (.*) ×(\d+)$/.exec(line);
      if (found) actions.set(found[1], (actions.get(found[1]) ?? 0) + Number(found[2]));
    }
  }
  return { quotes, actions, reply };
}

const INSTRUCTIONS = [
  'Summarize the following part of an agent’s work on one task for the agent itself to continue from.',
  'Quote every constraint, preference and decision the person stated verbatim, in double quotes, each on its own line starting with "- ".',
  'Then list what was done (tools and their outcomes) briefly. Do not add anything that is not in the text.',
  'Never repeat a statement marked [changed later].',
].join('\n');

/**
 * A summary written by the configured model, with the same rules as the extractive one (the
 * person's words quoted verbatim); the extractive summary is used when the model fails, so
 * compression never blocks a step.
 */
export class ModelSummarizer implements HistorySummarizer {
  readonly kind = 'model' as const;
  private readonly fallback = new ExtractiveSummarizer();

  constructor(private readonly model: ModelProvider) {}

  async summarizeSteps(steps: readonly HistoryStep[], withdrawn: readonly string[]): Promise<string> {
    const transcript = steps.flatMap((s) => s.messages.map(line)).join('\n');
    return this.ask(redact(transcript, withdrawn), () => this.fallback.summarizeSteps(steps, withdrawn));
  }

  async mergeSegments(texts: readonly string[], withdrawn: readonly string[]): Promise<string> {
    return this.ask(redact(texts.join('\n\n'), withdrawn), () => this.fallback.mergeSegments(texts, withdrawn));
  }

  private async ask(text: string, fallback: () => Promise<string>): Promise<string> {
    try {
      const result = await this.model.complete({
        messages: [
          { role: 'system', content: INSTRUCTIONS },
          { role: 'user', content: text },
        ],
        tools: [],
        trace: { purpose: 'history-summary' },
      });
      return result.text.trim() === '' ? fallback() : result.text.trim();
    } catch {
      return fallback();
    }
  }
}

function line(m: ChatMessage): string {
  switch (m.role) {
    case 'user':
      return `Person: ${m.content}`;
    case 'assistant':
      return `Agent: ${m.content}${(m.toolCalls ?? []).map((c) => ` [calls ${c.name}]`).join('')}`;
    case 'tool':
      return `Result: ${m.content.slice(0, 500)}`;
    case 'system':
      return `Note: ${m.content.slice(0, 500)}`;
  }
}
