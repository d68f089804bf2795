import { ArgsType, Field, ID, InputType, Int, registerEnumType } from '@nestjs/graphql';
import { z } from 'zod';
import { REPLAY_MODELS } from '@lomo/operator';
import { entityId, optional } from './input-schemas';

/** The models a replay may ask: the names `replayModelFromConfig` takes, upper case in GraphQL. */
export const ReplayModel = {
  RECORDED: 'recorded',
  OFFLINE: 'offline',
  REACTIVE: 'reactive',
  OPENAI: 'openai',
  SCRIPTED: 'scripted',
} as const satisfies Record<string, (typeof REPLAY_MODELS)[number]>;
export type ReplayModel = (typeof ReplayModel)[keyof typeof ReplayModel];

registerEnumType(ReplayModel, {
  name: 'ReplayModel',
  description:
    'What answers each replayed step: RECORDED (the stored replies, no model asked), OFFLINE (the demo policy), REACTIVE (the scripted model of the drills, deciding from the prompt alone), OPENAI (the configured OpenAI-compatible endpoint; BAD_REPLAY_MODEL when none is), SCRIPTED (the `script` given).',
});

/** A patch or a script is a small JSON document: longer text is refused before it is parsed. */
export const REPLAY_TEXT_MAX = 100_000;

@InputType({ description: 'How to replay a turn. Every field is optional: all steps, the recorded replies.' })
export class ReplayTurnOptions {
  @Field(() => Int, {
    nullable: true,
    description: 'Only this step of the turn (1-based); absent: every committed step. STEP_BEYOND_TURN past the last.',
  })
  step?: number | null;

  @Field(() => ReplayModel, { nullable: true, defaultValue: ReplayModel.RECORDED })
  model?: ReplayModel | null;

  @Field(() => String, {
    nullable: true,
    description:
      'SCRIPTED only (and required there): the script as JSON text, `{"steps": [{"reply": {"text", "toolCalls"}, "when"?: {"promptContains"}, "otherwise"?}]}`. BAD_REPLAY_SCRIPT when malformed.',
  })
  script?: string | null;

  @Field(() => String, {
    nullable: true,
    description:
      'Rewrites of the rebuilt prompts as JSON text, `{"patches": [{"layer", "find", "replace"} | {"tool", "description"} | {"brief"}]}`. BAD_PROMPT_PATCH when malformed.',
  })
  promptPatch?: string | null;
}

@ArgsType()
export class ReplayTurnArgs {
  @Field(() => ID)
  turnId!: string;

  @Field(() => ReplayTurnOptions, { nullable: true })
  options?: ReplayTurnOptions | null;
}

const replayText = optional(z.string().max(REPLAY_TEXT_MAX));

export const replayTurnSchema = z.strictObject({
  turnId: entityId,
  options: z
    .strictObject({
      step: optional(z.number().int()),
      model: optional(z.enum(REPLAY_MODELS)),
      script: replayText,
      promptPatch: replayText,
    })
    .nullish()
    .transform((o) => ({
      step: o?.step,
      model: o?.model ?? 'recorded',
      script: o?.script,
      promptPatch: o?.promptPatch,
    })),
});
