import { createHash } from 'node:crypto';
import { decideAll } from '@lomo/command-handling';
import {
  briefTextForContext,
  existingTask,
  existingTurn,
  isTurnTerminal,
  taskDecider,
  type ExistingTask,
  type ExistingTurn,
  type LoadableDomain,
  type StepContext,
  type TaskCommand,
  type ToolDomainName,
} from '@lomo/domain';
import { estimateTokens } from '@lomo/llm';
import type { ToolDomain } from '@lomo/tools';
import { TurnView } from '../streams/turn-view';
import type { RuntimeDeps } from '../worker/runtime-deps';
import type { TurnSession } from '../worker/turn-session';
import { withdrawnStatements } from './constraints';
import { ContextBuilder, describeMemories, describeSegments, prefixText, type Prompt } from './context-builder';
import type { RecalledMemory } from './memory-recall.port';
import { describeTask, type Withheld } from './describe-task';
import {
  activeSegments,
  comparePoints,
  coveredUpTo,
  renderHistoryStep,
  type HistoryStep,
  type ShownSegment,
} from './history';
import { FixedProfileSnapshot, type ProfileView } from './profile-snapshot.port';
import { ExtractiveSummarizer } from './summarizer';
import { unneededLoadedDomains, visibleDomains } from './visible-tools';

const ALL_DOMAINS: readonly ToolDomainName[] = ['core', 'image', 'video', 'audio', '3d', 'document', 'asset', 'flow'];
const SEGMENT_TYPE = 'text/plain';
/** Segments together may take this share of the history budget before they are merged into one. */
const SEGMENT_SHARE = 0.4;
/** Closed turns kept folded in memory (their steps are history for every later turn). */
const MAX_TURNS_CACHED = 500;
const MAX_COMPRESSIONS_PER_STEP = 8;
/** A compression brings history back to this share of its budget. */
const COMPRESS_TO = 0.9;
/** Memories a step shows at most, and how long it waits for them. */
const RECALL_LIMIT = 8;
const RECALL_TIMEOUT_MS = 300;
/** Tokens kept free for the model's reply (at most a tenth of the window). */
const REPLY_RESERVE = 4_096;

export interface AssembledContext {
  prompt: Prompt;
  context: StepContext;
}

interface PrefixFacts {
  hash: string;
  profileVersion: number | null;
  toolsKey: string;
}

/**
 * Puts one step's context together from the persisted state (article §6): the task's turns after
 * what its history segments cover are read and rendered (closed turns kept folded, rendered steps
 * cached), the history is compressed into a new segment when it passes its budget (the offline
 * default summarizes extractively; the text goes to the BlobStore, the event keeps its reference),
 * segments that state a withdrawn constraint are superseded by corrected copies, and the prompt is
 * built by the pure ContextBuilder with its cost recorded per layer.
 */
export class ContextAssembler {
  private readonly closedTurns = new Map<string, ExistingTurn>();
  private readonly rendered = new Map<string, { withdrawn: number; steps: HistoryStep[]; settled: number[] }>();
  private readonly segmentTexts = new Map<string, string>();
  private readonly lastPrefix = new Map<string, PrefixFacts>();
  private readonly prefixTokens = new Map<string, number>();

  /**
   * `builder`: the pure ContextBuilder by default; the operator's replay passes a double (a changed
   * builder) to see it reported as context drift.
   */
  constructor(
    private readonly deps: RuntimeDeps,
    private readonly builder: ContextBuilder = new ContextBuilder(),
  ) {}

  private count = (text: string): number => (this.deps.tokenizer ?? { count: estimateTokens }).count(text);

  async assemble(session: TurnSession, step: number, claimedItemIds: readonly string[]): Promise<AssembledContext> {
    const before = existingTask(session.task.state);
    const person = personOf(before, claimedItemIds);
    const profile = await (this.deps.profile ?? new FixedProfileSnapshot()).current(session.workspaceId, person);
    const memory = await this.recall(session.workspaceId, person, before, claimedItemIds);
    const memoryTokens = memory.memories.length === 0 ? 0 : this.count(describeMemories(memory.memories));
    await this.maintain(session, this.fixedTokens(before, profile, claimedItemIds) + memoryTokens);
    const task = existingTask(session.task.state);
    const turn = existingTurn(session.turn.state);
    const { segments, recent } = await this.history(session, task, turn, step);
    const domains = this.visible(task);
    const { tools, allowedTools } = this.toolsFor(domains);
    const claimed = claimedItemIds.flatMap((id) => (task.inbox[id] ? [task.inbox[id]] : []));
    const notices = Object.values(task.notices).filter(
      (n) => n.consumedBy?.turnId === turn.turnId && n.consumedBy.step === step,
    );
    const prompt = this.builder.build({
      task,
      turnReason: turn.reason,
      turnHasSteps: turn.steps.length > 0,
      claimed,
      notices,
      tools,
      ...(allowedTools !== undefined ? { allowedTools } : {}),
      domains,
      loadable: this.loadable(domains),
      profile,
      memories: memory.memories,
      segments,
      recent,
      countTokens: (text) => this.countCached(text),
      ...withheldByMutations(this.deps),
    });
    const previous = this.lastPrefix.get(task.taskId) ?? (await this.previousFacts(session, task, turn));
    return {
      prompt,
      context: { ...this.record(task, prompt, profile, domains, segments, previous), memory: memory.record },
    };
  }

  /**
   * The person's memories for this step, asked with a deadline (article §7.4): a recall that
   * fails or times out is skipped, the step records why, and the task goes on without memory.
   */
  private async recall(
    workspaceId: string,
    person: string | null,
    task: ExistingTask,
    claimedItemIds: readonly string[],
  ): Promise<{ memories: RecalledMemory[]; record: NonNullable<StepContext['memory']> }> {
    const recall = this.deps.recall;
    if (recall === undefined || person === null)
      return { memories: [], record: { status: 'disabled', versionIds: [] } };
    const text = [task.goal, briefTextForContext(task) ?? '', ...claimedItemIds.map((id) => task.inbox[id]?.text ?? '')]
      .filter((t) => t !== '')
      .join('\n');
    const controller = new AbortController();
    const timeoutMs = this.deps.recallTimeoutMs ?? RECALL_TIMEOUT_MS;
    let timer: NodeJS.Timeout | undefined;
    const deadline = new Promise<'timeout'>((resolve) => {
      timer = setTimeout(() => {
        controller.abort();
        resolve('timeout');
      }, timeoutMs);
    });
    try {
      const asked = recall.recall({
        workspaceId,
        userId: person,
        taskId: task.taskId,
        text,
        limit: RECALL_LIMIT,
        signal: controller.signal,
      });
      asked.catch(() => undefined);
      const result = await Promise.race([asked, deadline]);
      if (result === 'timeout') {
        this.deps.logger.warn(
          { taskId: task.taskId, timeoutMs },
          'memory recall timed out; the step goes on without it',
        );
        return { memories: [], record: { status: 'timeout', versionIds: [] } };
      }
      const memories = result.slice(0, RECALL_LIMIT);
      return {
        memories,
        record: { status: memories.length === 0 ? 'none' : 'recalled', versionIds: memories.map((m) => m.versionId) },
      };
    } catch (error) {
      const message = error instanceof Error ? error.message : String(error);
      this.deps.logger.warn(
        { taskId: task.taskId, error: message },
        'memory recall failed; the step goes on without it',
      );
      return { memories: [], record: { status: 'failed', versionIds: [], error: message.slice(0, 300) } };
    } finally {
      clearTimeout(timer);
    }
  }

  /** The prefix facts of the task's latest committed step: this turn's, else the turn before. */
  private async previousFacts(
    session: TurnSession,
    task: ExistingTask,
    turn: ExistingTurn,
  ): Promise<PrefixFacts | undefined> {
    const own = factsOf(turn);
    if (own !== undefined) return own;
    const index = task.turns.indexOf(turn.turnId);
    if (index <= 0) return undefined;
    const before = await this.closedTurn(session, task.turns[index - 1]);
    return before === undefined ? undefined : factsOf(before);
  }

  /** What a prompt holds besides its history: the prefix, the tail and the step's input. */
  private fixedTokens(task: ExistingTask, profile: ProfileView | null, claimedItemIds: readonly string[]): number {
    const domains = this.visible(task);
    const { tools } = this.toolsFor(domains);
    const tail = describeTask(task, { domains, loadable: this.loadable(domains) });
    const input = claimedItemIds.reduce((sum, id) => sum + this.count(task.inbox[id]?.text ?? ''), 0);
    return this.countCached(prefixText(profile)) + this.countCached(JSON.stringify(tools)) + this.count(tail) + input;
  }

  /**
   * What history may take: its share of the model's window, and never more than the window leaves
   * beside the prompt's other layers and the reply, so every prompt stays under the window.
   */
  private historyBudget(fixed: number): number {
    const window = this.deps.options.contextTokens;
    const reply = Math.min(REPLY_RESERVE, Math.floor(window * 0.1));
    return Math.max(0, Math.min(Math.floor(window * this.deps.options.historyShare), window - fixed - reply));
  }

  /** Domains tools.load could add: not visible, and some registered tool belongs to them. */
  private loadable(visible: readonly ToolDomainName[]): LoadableDomain[] {
    const provided = new Set(this.deps.tools.list().map((t) => t.domain));
    return ALL_DOMAINS.filter((d): d is LoadableDomain => d !== 'core' && !visible.includes(d) && provided.has(d));
  }

  /** The domains the model may call at this step (all of them when domains are switched off). */
  visible(task: ExistingTask): ToolDomainName[] {
    return this.deps.options.toolDomains === 'all' ? [...ALL_DOMAINS] : visibleDomains(task);
  }

  private toolsFor(domains: readonly ToolDomainName[]) {
    const registry = this.deps.tools;
    const loadable = (d: readonly ToolDomainName[]) => d.filter((x): x is ToolDomain => x !== 'core');
    if (this.deps.options.toolStrategy === 'dynamic')
      return { tools: registry.specs(loadable(domains)), allowedTools: undefined };
    const tools = registry.specs(loadable(ALL_DOMAINS));
    const allowed = new Set(registry.specs(loadable(domains)).map((t) => t.name));
    return { tools, allowedTools: tools.filter((t) => allowed.has(t.name)).map((t) => t.name) };
  }

  // ---- history -------------------------------------------------------------------------------

  /** The shown segments with their texts, and every step after them in full. */
  private async history(session: TurnSession, task: ExistingTask, turn: ExistingTurn, step: number) {
    const segments = await this.shownSegments(task);
    const recent = await this.recentSteps(session, task, turn, step);
    return { segments, recent };
  }

  /** The shown segments in the order of the steps they cover (a merge is appended after what it covers). */
  private async shownSegments(task: ExistingTask): Promise<ShownSegment[]> {
    const segments: ShownSegment[] = [];
    const ordered = [...activeSegments(task)].sort((a, b) => comparePoints(task.turns, a.covers.from, b.covers.from));
    for (const s of ordered)
      segments.push({
        segmentId: s.segmentId,
        covers: s.covers,
        text: await this.segmentText(s.text.hash),
        tokens: s.tokens,
      });
    return segments;
  }

  private async recentSteps(
    session: TurnSession,
    task: ExistingTask,
    turn: ExistingTurn,
    step: number,
  ): Promise<HistoryStep[]> {
    const covered = coveredUpTo(task);
    const firstTurn = covered === null ? 0 : Math.max(0, task.turns.indexOf(covered.turnId));
    // Both only grow, so their sum changes whenever either does: a rendered turn is redone then.
    const withdrawnCount = withdrawnStatements(task).length + task.excluded.forgettings.length;
    const steps: HistoryStep[] = [];
    for (let index = firstTurn; index < task.turns.length; index += 1) {
      const turnId = task.turns[index];
      const source = turnId === turn.turnId ? turn : await this.closedTurn(session, turnId);
      if (source === undefined) continue;
      const last = turnId === turn.turnId ? step - 1 : source.steps.length;
      const first = covered !== null && covered.turnId === turnId ? covered.step + 1 : 1;
      const rendered = this.renderedTurn(task, source, index, last, withdrawnCount);
      for (let n = first; n <= last; n += 1) steps.push(rendered[n - 1]);
    }
    return steps;
  }

  /**
   * A turn's steps as history, kept per turn while nothing they show can change (no new
   * constraint withdrawn): only steps not rendered yet, or whose calls have settled since, are
   * rendered again, so a step costs what is new in it, not the turn's length.
   */
  private renderedTurn(
    task: ExistingTask,
    turn: ExistingTurn,
    turnIndex: number,
    last: number,
    withdrawn: number,
  ): HistoryStep[] {
    let cache = this.rendered.get(turn.turnId);
    if (cache === undefined || cache.withdrawn !== withdrawn) {
      cache = { withdrawn, steps: [], settled: [] };
      if (this.rendered.size > 2_000) this.rendered.clear();
      this.rendered.set(turn.turnId, cache);
    }
    for (let n = 1; n <= last; n += 1) {
      const settled = settledCalls(turn, n);
      if (cache.steps[n - 1] !== undefined && cache.settled[n - 1] === settled) continue;
      cache.steps[n - 1] = this.renderStep(task, turn, turnIndex, n);
      cache.settled[n - 1] = settled;
    }
    return cache.steps;
  }

  private renderStep(task: ExistingTask, turn: ExistingTurn, turnIndex: number, step: number): HistoryStep {
    const messages = renderHistoryStep(task, turn, step);
    const tokens = messages.reduce(
      (sum, m) =>
        sum +
        this.count(m.content) +
        (m.role === 'assistant' && m.toolCalls ? this.count(JSON.stringify(m.toolCalls)) : 0) +
        4,
      0,
    );
    return { turnId: turn.turnId, turnIndex, step, turnReason: step === 1 ? turn.reason : null, messages, tokens };
  }

  private async closedTurn(session: TurnSession, turnId: string): Promise<ExistingTurn | undefined> {
    const cached = this.closedTurns.get(turnId);
    if (cached !== undefined) return cached;
    const view = await TurnView.load(this.deps.store, turnId);
    if (view.state.status === 'none') return undefined;
    const turn = view.state;
    // Only an ended turn is immutable enough to keep (a late result is recorded, changes nothing here).
    if (isTurnTerminal(turn)) {
      if (this.closedTurns.size >= MAX_TURNS_CACHED) this.closedTurns.delete(this.closedTurns.keys().next().value!);
      this.closedTurns.set(turnId, turn);
    }
    void session;
    return turn;
  }

  private async segmentText(hash: string): Promise<string> {
    const known = this.segmentTexts.get(hash);
    if (known !== undefined) return known;
    const body = await this.deps.blobs.get(hash);
    // A forgotten segment's text is gone: it shows as purged, never as anything else.
    const text = body === undefined ? '(this summary was deleted)' : body.toString('utf8');
    this.segmentTexts.set(hash, text);
    return text;
  }

  // ---- compression ---------------------------------------------------------------------------

  /**
   * Before a step: segments that state a withdrawn constraint are superseded by corrected copies;
   * a history over its budget has its oldest span summarized into a new segment (loaded tool
   * domains the plan does not need are unloaded at that boundary); segments over their share are
   * merged into one. Each is an append to the task stream at the revision last seen.
   */
  private async maintain(session: TurnSession, fixed: number): Promise<void> {
    const budget = this.historyBudget(fixed);
    for (let round = 0; round < MAX_COMPRESSIONS_PER_STEP; round += 1) {
      const task = existingTask(session.task.state);
      const turn = existingTurn(session.turn.state);
      const commands = (await this.correction(task)) ?? (await this.compression(session, task, turn, budget));
      if (commands === undefined) return;
      const events = decideAll(taskDecider, task, commands);
      if (events.length === 0) return;
      const outcome = await session.exclusive(() =>
        session.appendTask({
          kind: 'append',
          stream: 'task',
          intent: 'compress-history',
          events,
          expected: session.task.revision as number,
        }),
      );
      if (outcome === 'lost') return;
    }
  }

  private async correction(task: ExistingTask): Promise<TaskCommand[] | undefined> {
    const withdrawn = withdrawnStatements(task);
    if (withdrawn.length === 0) return undefined;
    const summarizer = this.deps.summarizer ?? new ExtractiveSummarizer();
    for (const s of activeSegments(task)) {
      const text = await this.segmentText(s.text.hash);
      if (!withdrawn.some((statement) => text.includes(statement))) continue;
      const corrected = await summarizer.mergeSegments([text], withdrawn);
      return [await this.segmentCommand(corrected, s.covers, [s.segmentId], summarizer.kind)];
    }
    return undefined;
  }

  private async compression(
    session: TurnSession,
    task: ExistingTask,
    turn: ExistingTurn,
    budget: number,
  ): Promise<TaskCommand[] | undefined> {
    const active = activeSegments(task);
    // As shown: the segments' texts under their headers, in one message.
    const shown = await this.shownSegments(task);
    const segmentTokens = shown.length === 0 ? 0 : this.countCached(describeSegments(shown)) + 4;
    const summarizer = this.deps.summarizer ?? new ExtractiveSummarizer();
    const withdrawn = withdrawnStatements(task);
    if (active.length >= 2 && segmentTokens > budget * SEGMENT_SHARE) {
      // The oldest segments, just enough of them to bring the segments back under COMPRESS_TO of
      // their share, merged into one (at least two: a merge of one would change nothing).
      const oldest = [...active].sort((a, b) => comparePoints(task.turns, a.covers.from, b.covers.from));
      const excess = segmentTokens - budget * SEGMENT_SHARE * COMPRESS_TO;
      const picked: typeof oldest = [];
      let freed = 0;
      for (const segment of oldest) {
        picked.push(segment);
        freed += segment.tokens;
        if (picked.length >= 2 && freed >= excess) break;
      }
      const texts = await Promise.all(picked.map((s) => this.segmentText(s.text.hash)));
      const merged = await summarizer.mergeSegments(texts, withdrawn);
      const covers = {
        from: picked[0].covers.from,
        to: picked.at(-1)!.covers.to,
        steps: picked.reduce((sum, s) => sum + s.covers.steps, 0),
      };
      return [
        await this.segmentCommand(
          merged,
          covers,
          picked.map((s) => s.segmentId),
          summarizer.kind,
        ),
      ];
    }
    const recent = await this.recentSteps(session, task, turn, turn.steps.length + 1);
    const recentTokens = recent.reduce((sum, s) => sum + s.tokens, 0);
    if (segmentTokens + recentTokens <= budget || recent.length < 2) return undefined;
    // The oldest steps, just enough to bring history back under COMPRESS_TO of its budget (the
    // prompt's size stays nearly flat; a compression breaks the cached history once), the latest
    // step always kept in full.
    const excess = segmentTokens + recentTokens - budget * COMPRESS_TO;
    const span: HistoryStep[] = [];
    let taken = 0;
    for (const s of recent.slice(0, -1)) {
      span.push(s);
      taken += s.tokens;
      if (taken >= excess) break;
    }
    const text = await summarizer.summarizeSteps(span, withdrawn);
    const first = span[0];
    const last = span.at(-1)!;
    const covers = {
      from: { turnId: first.turnId, step: first.step },
      to: { turnId: last.turnId, step: last.step },
      steps: span.length,
    };
    const unload = unneededLoadedDomains(task, covers.to);
    return [
      await this.segmentCommand(text, covers, [], summarizer.kind),
      ...(unload.length > 0 ? [{ type: 'UnloadToolDomains' as const, domains: unload }] : []),
    ];
  }

  private async segmentCommand(
    text: string,
    covers: { from: { turnId: string; step: number }; to: { turnId: string; step: number }; steps: number },
    supersedes: string[],
    summarizer: 'extractive' | 'model',
  ): Promise<TaskCommand> {
    const ref = await this.deps.blobs.put(text, SEGMENT_TYPE);
    this.segmentTexts.set(ref.hash, text);
    return {
      type: 'AppendHistorySegment',
      segmentId: this.deps.ids.uuid(),
      covers,
      text: ref,
      tokens: this.count(text),
      summarizer,
      supersedes,
    };
  }

  // ---- accounting ----------------------------------------------------------------------------

  private countCached(text: string): number {
    // Rules, profile and tool definitions repeat every step: counted once per distinct text.
    if (text.length < 2_000) return this.count(text);
    const key = createHash('sha1').update(text).digest('base64');
    const known = this.prefixTokens.get(key);
    if (known !== undefined) return known;
    const tokens = this.count(text);
    if (this.prefixTokens.size > 1_000) this.prefixTokens.clear();
    this.prefixTokens.set(key, tokens);
    return tokens;
  }

  private record(
    task: ExistingTask,
    prompt: Prompt,
    profile: ProfileView | null,
    domains: readonly ToolDomainName[],
    segments: readonly ShownSegment[],
    previous: PrefixFacts | undefined,
  ): StepContext {
    const prefix = prompt.layers.find((l) => l.layer === 'prefix')!;
    const hash = createHash('sha256')
      .update(prefixText(profile))
      .update('\0')
      .update(JSON.stringify(prompt.tools))
      .digest('hex');
    const toolsKey = `${this.deps.options.toolStrategy}:${domains.join(',')}`;
    const changed =
      previous === undefined
        ? ('first_step' as const)
        : previous.hash === hash
          ? null
          : previous.profileVersion !== (profile?.version ?? null)
            ? ('profile_version' as const)
            : previous.toolsKey !== toolsKey
              ? ('tool_set' as const)
              : ('rules' as const);
    this.lastPrefix.set(task.taskId, { hash, profileVersion: profile?.version ?? null, toolsKey });
    const promptTokens = prompt.layers.reduce((sum, l) => sum + l.tokens, 0);
    return {
      layers: prompt.layers.map((l) => ({ layer: l.layer, tokens: l.tokens, messages: l.end - l.start })),
      prefix: { hash, tokens: prefix.tokens, changed, profileVersion: profile?.version ?? null },
      tools: { strategy: this.deps.options.toolStrategy, domains: [...domains], sent: prompt.tools.length },
      segments: segments.map((s) => s.segmentId),
      budgetTokens: this.deps.options.contextTokens,
      promptTokens,
    };
  }
}

/**
 * Whose memory a step may recall: the sender of the latest message it claimed, else of the latest
 * message the task holds. A person's memory is theirs alone, even in a shared workspace.
 */
function personOf(task: ExistingTask, claimedItemIds: readonly string[]): string | null {
  for (const id of [...claimedItemIds].reverse()) {
    const from = task.inbox[id]?.from;
    if (from != null) return from;
  }
  const held = Object.values(task.inbox).filter((i) => i.from !== null);
  return held.length === 0 ? null : held[held.length - 1].from;
}

/** Calls of a committed step that have their outcome (what its rendering depends on). */
function settledCalls(turn: ExistingTurn, step: number): number {
  let settled = 0;
  for (const c of turn.steps[step - 1].calls) if (c.status === 'completed' || c.status === 'unknown') settled += 1;
  return settled;
}

/** The prefix facts of a turn's last committed step that recorded them. */
function factsOf(turn: ExistingTurn): PrefixFacts | undefined {
  const context = [...turn.steps].reverse().find((s) => s.context !== null)?.context;
  if (context == null) return undefined;
  return {
    hash: context.prefix.hash,
    profileVersion: context.prefix.profileVersion,
    toolsKey: `${context.tools.strategy}:${context.tools.domains.join(',')}`,
  };
}

/** The drills' context mutations (test-control README); none in production, where testControl is off. */
export function withheldByMutations(deps: Pick<RuntimeDeps, 'testControl'>): { withheld?: Withheld } {
  const control = deps.testControl;
  if (control === undefined) return {};
  const withheld: Withheld = {
    ...(control.mutation('no_language_carry') ? { language: true } : {}),
    ...(control.mutation('no_artifact_reuse') ? { taskArtifacts: true } : {}),
    ...(control.mutation('no_change_notice') ? { changeNotices: true } : {}),
  };
  return Object.keys(withheld).length === 0 ? {} : { withheld };
}
