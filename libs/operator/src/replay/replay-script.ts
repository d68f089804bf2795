import { z } from 'zod';
import { ScriptedModelProvider, type CompletionRequest, type ScriptedReply } from '@lomo/llm';
import { ReplayScriptRefusedError } from './replay-errors';

const toolCall = z.strictObject({ name: z.string().min(1), arguments: z.record(z.string(), z.unknown()).default({}) });
const reply = z.strictObject({ text: z.string().default(''), toolCalls: z.array(toolCall).default([]) });

const step = z
  .strictObject({
    /** The answer; with `when`, the answer when the condition holds. */
    reply,
    /** The condition on the prompt the model is sent: any message (or tool description) contains the text. */
    when: z.strictObject({ promptContains: z.string().min(1) }).optional(),
    /** The answer when `when` does not hold. */
    otherwise: reply.optional(),
  })
  .refine((s) => (s.when === undefined) === (s.otherwise === undefined), {
    message: '`when` and `otherwise` go together',
  });

export const replayScriptSchema = z.strictObject({ steps: z.array(step).min(1) });
export type ReplayScript = z.infer<typeof replayScriptSchema>;

const promptContains = (request: CompletionRequest, text: string) =>
  request.messages.some((m) => m.content.includes(text)) || request.tools.some((t) => t.description.includes(text));

const asReply = (r: z.infer<typeof reply>): ScriptedReply => ({
  text: r.text,
  toolCalls: r.toolCalls.map((c) => ({ name: c.name, arguments: c.arguments })),
});

/**
 * `--model scripted --script F`: a model that answers each request in turn from a file, a step
 * possibly reading its prompt (`when.promptContains`): "would this patched rule change the
 * answer?" without any provider. One step per model call; a call past the last is the model's
 * MODEL_UNSCRIPTED error, which the replay reports at that step.
 */
export function parseReplayScript(input: string): ScriptedModelProvider {
  let value: unknown;
  try {
    value = JSON.parse(input);
  } catch (error) {
    throw new ReplayScriptRefusedError(`not JSON (${error instanceof Error ? error.message : String(error)})`);
  }
  const parsed = replayScriptSchema.safeParse(value);
  if (!parsed.success)
    throw new ReplayScriptRefusedError(
      parsed.error.issues.map((i) => `${i.path.join('.') || '(root)'}: ${i.message}`).join('; '),
    );
  return new ScriptedModelProvider(
    parsed.data.steps.map((s, i) => {
      const { when, otherwise } = s;
      return {
        label: `script step ${i + 1}`,
        reply:
          when === undefined || otherwise === undefined
            ? asReply(s.reply)
            : (request: CompletionRequest) =>
                promptContains(request, when.promptContains) ? asReply(s.reply) : asReply(otherwise),
      };
    }),
  );
}
