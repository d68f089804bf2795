import type { Caller } from '@lomo/auth';
import { streams } from '@lomo/contracts';
import type { BlobRef, BlobStore } from '@lomo/blobs';
import type { EventStore } from '@lomo/eventstore';
import type { ModelProvider } from '@lomo/llm';
import { PromptArchive, type Prompt } from '@lomo/runtime';
import { assertOperator } from '../access/operator-access';
import { generationJobsOf } from '../inspect/generation-jobs';
import { CopyOnWriteBlobStore } from './copy-on-write-blobs';
import { diffDecision, recordedDecision, replayedDecision, type Decision, type DecisionDiff } from './decision-diff';
import { applyPromptPatch, parsePromptPatch } from './prompt-patch';
import { compareContext, promptText } from './prompt-fingerprint';
import { excluded, forgottenFlag, hideRecorded, notReplayed, shownReply, shownText } from './replay-step-report';
import { rebuildStepPrompt } from './rebuild-step-prompt';
import { RecordedMemory } from './recorded-memory';
import { StepBeyondTurnError } from './replay-errors';
import { readReplayRecord, type RecordedStep, type ReplayRecord } from './replay-record';
import { specsOnly, type ReplayDeps } from './replay-runtime-deps';
import type { RecordedJob, ReplayedStep, ReplayOptions, ReplayReport } from './replay.types';

export interface ReplaySources {
  /** Only read: a replay appends nothing to it. */
  events: Pick<EventStore, 'readStream'>;
  /** Only read (get, has): the replay's writes stay in a copy-on-write layer over it. */
  blobs: Pick<BlobStore, 'get' | 'has'>;
}

/**
 * Replays a turn from its log, side-effect free (issue 20): each committed step's prompt rebuilt
 * by the live context assembler on an in-memory copy of the state before it and compared with
 * the archived one (a mismatch is context drift); the recorded decision, or the chosen model's
 * answer to the rebuilt (patched) prompt, compared with the record; recorded tool outcomes reused
 * for matching calls, others stubbed, and nothing replayed after a divergence. No tool, provider
 * other than `options.model`, bus or webhook is reached, and the real stores are only read.
 * Operators only.
 */
export async function replayTurn(
  sources: ReplaySources,
  caller: Caller,
  turnId: string,
  options: ReplayOptions,
  deps: ReplayDeps,
): Promise<ReplayReport> {
  assertOperator(caller, 'replaying a turn');
  // Checked again here: a patch may come from a GraphQL argument rather than parsePromptPatch.
  const promptPatch = options.promptPatch === undefined ? undefined : parsePromptPatch(options.promptPatch);
  const record = await readReplayRecord(sources.events, turnId);
  const selected = selectSteps(record, options.step);
  const blobs = new CopyOnWriteBlobStore(sources.blobs);
  const archive = new PromptArchive(blobs);
  const tools = specsOnly(deps.tools);
  const memory = new RecordedMemory(sources.events, blobs);
  const jobs = await recordedJobs(sources, caller, record);

  const steps: ReplayedStep[] = [];
  let stopped = false;
  for (const recorded of selected) {
    if (stopped) {
      steps.push(notReplayed(record, recorded));
      continue;
    }
    const rebuilt = await rebuildStepPrompt(record, recorded, { blobs, tools, memory }, deps);
    const stored = await archive.load(recorded.step.promptRef as BlobRef);
    const context = compareContext(rebuilt.prompt, stored);
    const forgotten = forgottenFlag(record, recorded, stored, rebuilt.forgottenInput);
    const patched = applyPromptPatch(rebuilt.prompt, promptPatch, rebuilt.brief);

    let decision: Decision;
    if (options.model === 'recorded') decision = recordedDecision(recorded.step);
    else if (record.forgotten.quotesForgotten(promptText(patched.prompt))) {
      // Belt and braces: a rebuilt (or patched) prompt that still quotes forgotten text is never sent.
      steps.push({
        ...notReplayed(record, recorded),
        status: 'withheld',
        context,
        forgotten,
        concurrent: rebuilt.concurrent,
        patched: patched.applied,
      });
      stopped = true;
      continue;
    } else {
      const answer = await ask(options.model, patched.prompt, record, recorded.step.step);
      if ('error' in answer) {
        // No answer is no decision: the step says why, and nothing after it is replayed.
        steps.push({
          ...notReplayed(record, recorded),
          status: 'model_failed',
          error: answer.error,
          context,
          forgotten,
          concurrent: rebuilt.concurrent,
          patched: patched.applied,
        });
        stopped = true;
        continue;
      }
      decision = answer;
    }

    const diff = withJobs(diffDecision(recorded.step, decision), jobs);
    steps.push({
      step: recorded.step.step,
      status: 'replayed',
      context,
      forgotten,
      concurrent: rebuilt.concurrent,
      patched: patched.applied,
      reply: {
        recorded: shownReply(record, recorded),
        // The recorded model's reply is the recorded one: hidden as that is.
        replayed: options.model === 'recorded' ? shownReply(record, recorded) : shownText(record, diff.reply.replayed),
        equal: diff.reply.equal,
      },
      toolCalls: excluded(record, recorded)
        ? diff.toolCalls.map((c) => hideRecorded(c, options.model === 'recorded'))
        : diff.toolCalls,
      diverged: diff.diverged,
    });
    // After a divergence (or a call with nothing recorded) the log no longer says what came next.
    if (diff.diverged || diff.stubbed) stopped = true;
  }
  return {
    turnId,
    taskId: record.taskId,
    workspaceId: record.workspaceId,
    model: options.model === 'recorded' ? 'recorded' : options.model.name,
    steps,
    divergedAt: steps.find((s) => s.diverged)?.step ?? null,
    driftAt: steps.find((s) => s.context?.status === 'context_drift')?.step ?? null,
  };
}

function selectSteps(record: ReplayRecord, step: number | undefined): RecordedStep[] {
  if (step === undefined) return record.steps;
  const found = Number.isInteger(step) ? record.steps.find((s) => s.step.step === step) : undefined;
  if (found === undefined) throw new StepBeyondTurnError(record.turnId, step, record.steps.length);
  return [found];
}

/** The model asked as a worker asks it (model-step.ts), with the rebuilt prompt; its failure as data. */
async function ask(
  model: ModelProvider,
  prompt: Prompt,
  record: ReplayRecord,
  step: number,
): Promise<Decision | { error: { code: string; message: string } }> {
  try {
    const result = await model.complete({
      messages: prompt.messages,
      tools: prompt.tools,
      toolChoice: 'auto',
      ...(prompt.allowedTools !== undefined ? { allowedTools: prompt.allowedTools } : {}),
      cacheKey: record.taskId,
      trace: { taskId: record.taskId, turnId: record.turnId, step, purpose: 'replay' },
    });
    return replayedDecision(result.text, result.toolCalls);
  } catch (error) {
    const code = (error as { code?: unknown }).code;
    return {
      error: {
        code: typeof code === 'string' ? code : 'MODEL_FAILED',
        message: (error instanceof Error ? error.message : String(error)).slice(0, 500),
      },
    };
  }
}

/** The paid jobs the turn's calls started, by the recorded call id (the inspections' reading). */
async function recordedJobs(
  sources: ReplaySources,
  caller: Caller,
  record: ReplayRecord,
): Promise<Map<string, RecordedJob>> {
  const turn = { turnId: record.turnId, events: record.turnStreams.get(streams.turn(record.turnId)) ?? [] };
  const { jobs } = await generationJobsOf(sources, caller, { ...record, turns: [turn] });
  return new Map(
    jobs.flatMap(({ jobId, callId, status, chargedMinor, refundedMinor, currency }) =>
      callId === null ? [] : [[callId, { jobId, status, chargedMinor, refundedMinor, currency }] as const],
    ),
  );
}

/** A reused outcome of a call that started a paid job carries the job's outcome too. */
function withJobs(diff: DecisionDiff, jobs: ReadonlyMap<string, RecordedJob>): DecisionDiff {
  return {
    ...diff,
    toolCalls: diff.toolCalls.map((c) => {
      const job = c.callId === null ? undefined : jobs.get(c.callId);
      return job === undefined || c.outcome === undefined ? c : { ...c, outcome: { ...c.outcome, job } };
    }),
  };
}
