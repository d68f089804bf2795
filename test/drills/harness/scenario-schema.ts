import { z } from 'zod';

/**
 * A drill scenario as a product person writes it (test/drills/scenarios/*.yaml): who the person
 * is, what they say (each message naming the task it is meant for, the misroute metric's ground
 * truth), when they approve or adjust a card, edit an artefact, switch tasks, come back days
 * later, forget a memory or stop a task. Task names are the scenario's own words ("posters").
 */

const taskName = z.string().regex(/^[a-z][a-z0-9-]*$/, 'a task name is lower-case words joined by "-"');

/**
 * Which task a message is meant for: a new one of that name, or the named task opened earlier;
 * `main: true` for a message to Main that no task should take (a fact about the person). The
 * misroute metric scores `new` and `task` messages; a Main message must get no task.
 */
export const targetSchema = z.union([
  z.object({ new: taskName }).strict(),
  z.object({ task: taskName }).strict(),
  z.object({ main: z.literal(true) }).strict(),
]);
export type DrillTarget = z.infer<typeof targetSchema>;

/** Picks one open card of a task; every given field must match. */
const cardMatch = z
  .object({
    kind: z.enum(['APPROVAL', 'REVIEW', 'BUDGET', 'QUESTION']).optional(),
    item: z.string().optional(),
    question_contains: z.string().optional(),
  })
  .strict();

const duration = z.string().regex(/^\d+(ms|s|m|h|d)$/, 'a duration like "90s", "15m", "3d"');

const sayStep = z
  .object({
    say: z
      .object({
        text: z.string().min(1),
        target: targetSchema,
        clientMessageId: z.string().min(1).max(128).optional(),
      })
      .strict(),
  })
  .strict();

/**
 * idle: the agent answered the person's last action on the task and no turn runs; done: idle, no
 * open card, the checklist complete; cards: `count` open cards; generating: a paid job was
 * submitted since; stopped: the task is stopped; jobs-settled: every job of the workspace so far
 * has completed or failed (what was in flight when the person acted has landed).
 */
const waitFor = z.enum(['idle', 'done', 'cards', 'generating', 'stopped', 'jobs-settled']);
const waitStep = z
  .object({
    wait: z
      .object({
        for: waitFor,
        task: taskName,
        /** How many open cards `cards` waits for (default 1). */
        count: z.number().int().positive().optional(),
        timeout: duration.optional(),
      })
      .strict(),
  })
  .strict();

const approveStep = z.object({ approve: z.object({ task: taskName, card: cardMatch.default({}) }).strict() }).strict();
const adjustStep = z
  .object({ adjust: z.object({ task: taskName, card: cardMatch.default({}), note: z.string().min(1) }).strict() })
  .strict();

/** The person edits a document of the task in the workspace: the agent must see the change. */
const editArtifactStep = z
  .object({
    edit_artifact: z
      .object({
        task: taskName,
        /** A word of the artefact's title (the latest matching one of the task is edited). */
        title: z.string().min(1),
        change: z.union([
          z.object({ append: z.string().min(1) }).strict(),
          z.object({ replace: z.object({ from: z.string().min(1), to: z.string() }).strict() }).strict(),
        ]),
      })
      .strict(),
  })
  .strict();

/** The person changes node params of a Flows workflow of the task, mid-run. */
const editFlowStep = z
  .object({
    edit_flow: z
      .object({
        task: taskName,
        title: z.string().min(1),
        node: z.string().min(1),
        params: z.record(z.string(), z.unknown()),
      })
      .strict(),
  })
  .strict();

const switchStep = z.object({ switch_to: taskName }).strict();
const advanceClockStep = z.object({ advance_clock: duration }).strict();
const forgetStep = z.object({ forget: z.object({ memory_matching: z.string().min(1) }).strict() }).strict();
const correctStep = z
  .object({
    correct: z
      .object({ memory_matching: z.string().min(1), text: z.string().min(1), value: z.string().optional() })
      .strict(),
  })
  .strict();
const stopStep = z.object({ stop_task: taskName }).strict();
/**
 * The app process dies (SIGKILL) or stops, and starts again on the same data directory;
 * `crashed`: the app killed itself at the crash point an `arm_crash` step armed (waited for up
 * to two minutes; the step fails if the app is still alive then), and is started again the same way.
 */
const restartStep = z.object({ restart: z.enum(['kill', 'stop', 'crashed']) }).strict();

/**
 * The person (an operator, through `POST /test-control/faults`) arms a one-shot crash of the app
 * at a point no outside kill can aim at. `after_media_order`: the app SIGKILLs itself right after
 * its next media job order is recorded and before the tool's pending result is (the
 * `crash_after_media_order` fault, libs/platform/src/test-control/README.md). A later
 * `restart: crashed` waits for that death and restarts the app on the same data directory.
 */
export const CRASH_POINTS = { after_media_order: 'crashAfterMediaOrder' } as const;
const armCrashStep = z.object({ arm_crash: z.enum(['after_media_order']) }).strict();

/**
 * A person who finds the task idle with work left and nothing asking them (no card, the agent
 * waiting) types a bare "continue" into the task; a task that is done, has a card open, or runs
 * on by itself gets nothing. The `continue_prompts` metric counts each such message.
 */
const nudgeIfStalledStep = z
  .object({
    nudge_if_stalled: z
      .object({
        task: taskName,
        text: z.string().min(1).default('continue'),
        /** At most this many nudges, each after the agent stalled again (default 1). */
        max: z.number().int().positive().optional(),
        timeout: duration.optional(),
      })
      .strict(),
  })
  .strict();

/** Each step is an object with one key naming what the person does; the key picks its schema. */
export const STEP_SCHEMAS = {
  say: sayStep,
  wait: waitStep,
  approve: approveStep,
  adjust: adjustStep,
  edit_artifact: editArtifactStep,
  edit_flow: editFlowStep,
  switch_to: switchStep,
  advance_clock: advanceClockStep,
  forget: forgetStep,
  correct: correctStep,
  stop_task: stopStep,
  restart: restartStep,
  arm_crash: armCrashStep,
  nudge_if_stalled: nudgeIfStalledStep,
} as const;

export const stepSchema = z.union([
  sayStep,
  waitStep,
  approveStep,
  adjustStep,
  editArtifactStep,
  editFlowStep,
  switchStep,
  advanceClockStep,
  forgetStep,
  correctStep,
  stopStep,
  restartStep,
  armCrashStep,
  nudgeIfStalledStep,
]);
export type DrillStep = z.infer<typeof stepSchema>;

/** What must hold at the end, beyond the metrics: the work was done, not only not done badly. */
const expectation = z
  .object({
    /** Every checklist item of these tasks is done. */
    checklist_done: z.array(taskName).optional(),
    /** At least this many artefacts linked to the task's checklist or made by its jobs. */
    min_artifacts: z.record(taskName, z.number().int().nonnegative()).optional(),
    /** At most this many: the agent built on what exists instead of making it again. */
    max_artifacts: z.record(taskName, z.number().int().nonnegative()).optional(),
    /** The task ends with this status. */
    status: z.record(taskName, z.enum(['ACTIVE', 'WAITING', 'COMPLETED', 'STOPPED', 'PAUSED', 'ARCHIVED'])).optional(),
    /** The task's language stays this BCP 47 tag. */
    language: z.record(taskName, z.string()).optional(),
  })
  .strict();

export const scenarioSchema = z
  .object({
    name: z.string().regex(/^[a-z0-9-]+$/),
    title: z.string().min(1),
    /** `known-gap`: kept and run, but a failure is expected and reported with `gap` as the reason. */
    status: z.enum(['ready', 'known-gap']).default('ready'),
    gap: z.string().optional(),
    /** What the scenario shows, for a reader of the file. */
    story: z.string().optional(),
    /** Extra app environment of this scenario (e.g. a fault switch). */
    env: z.record(z.string(), z.string()).optional(),
    person: z.array(stepSchema).min(1),
    expect: expectation.default({}),
  })
  .strict()
  .superRefine((s, ctx) => {
    if (s.status === 'known-gap' && (s.gap ?? '').trim() === '')
      ctx.addIssue({ code: 'custom', path: ['gap'], message: 'a known-gap scenario says why (gap: ...)' });
    // A crash is armed before the restart that waits for it, and every armed crash is waited for.
    let armed = false;
    s.person.forEach((step, i) => {
      if ('arm_crash' in step) {
        if (armed)
          ctx.addIssue({ code: 'custom', path: ['person', i], message: 'a crash is armed again before it happened' });
        armed = true;
      }
      if ('restart' in step && step.restart === 'crashed') {
        if (!armed)
          ctx.addIssue({
            code: 'custom',
            path: ['person', i],
            message: 'restart: crashed waits for a crash no arm_crash step armed before it',
          });
        armed = false;
      }
    });
    if (armed)
      ctx.addIssue({
        code: 'custom',
        path: ['person'],
        message: 'an armed crash is never waited for (restart: crashed)',
      });
    // A task is named by the message that opens it before any step refers to it.
    const opened = new Set<string>();
    s.person.forEach((step, i) => {
      if ('say' in step && 'new' in step.say.target) {
        if (opened.has(step.say.target.new))
          ctx.addIssue({
            code: 'custom',
            path: ['person', i],
            message: `task "${step.say.target.new}" is opened twice`,
          });
        opened.add(step.say.target.new);
        return;
      }
      for (const name of tasksOf(step))
        if (!opened.has(name))
          ctx.addIssue({
            code: 'custom',
            path: ['person', i],
            message: `task "${name}" is used before a message opens it (say: {target: {new: ${name}}})`,
          });
    });
  });
export type DrillScenario = z.infer<typeof scenarioSchema>;

/** The task names a step refers to. */
export function tasksOf(step: DrillStep): string[] {
  if ('say' in step) return 'task' in step.say.target ? [step.say.target.task] : [];
  if ('wait' in step) return [step.wait.task];
  if ('approve' in step) return [step.approve.task];
  if ('adjust' in step) return [step.adjust.task];
  if ('edit_artifact' in step) return [step.edit_artifact.task];
  if ('edit_flow' in step) return [step.edit_flow.task];
  if ('switch_to' in step) return [step.switch_to];
  if ('stop_task' in step) return [step.stop_task];
  if ('nudge_if_stalled' in step) return [step.nudge_if_stalled.task];
  return [];
}

/** "90s" → 90 000; "3d" → 259 200 000. */
export function durationMs(text: string): number {
  const m = /^(\d+)(ms|s|m|h|d)$/.exec(text);
  if (m === null) throw new Error(`not a duration: ${text}`);
  const unit = { ms: 1, s: 1_000, m: 60_000, h: 3_600_000, d: 86_400_000 }[m[2] as 'ms' | 's' | 'm' | 'h' | 'd'];
  return Number(m[1]) * unit;
}
