import { Field, ID, Int, ObjectType } from '@nestjs/graphql';
import { ChatRole, ContentUnavailable, PrefixChange, PromptLayerName, ToolDomain, ToolStrategy } from './enums';

@ObjectType({ description: "One layer's share of a step's prompt." })
export class ContextLayerCost {
  @Field(() => PromptLayerName)
  layer!: string;

  @Field(() => Int)
  tokens!: number;

  @Field(() => Int, {
    description: 'Messages the layer held (the prefix is one; its tool definitions are counted in `tokens`).',
  })
  messages!: number;
}

@ObjectType({
  description: 'The cache-eligible start of a prompt: rules, the profile snapshot and the tool definitions.',
})
export class PromptPrefix {
  @Field(() => String, { description: 'sha256 (hex) of the prefix as sent.' })
  hash!: string;

  @Field(() => Int)
  tokens!: number;

  @Field(() => PrefixChange, {
    nullable: true,
    description: "Why it differs from the task's step before; null when it is byte-identical.",
  })
  changed!: string | null;

  @Field(() => Int, { nullable: true, description: "The person's profile version it held; null without a profile." })
  profileVersion!: number | null;
}

@ObjectType({ description: 'The tools a step offered.' })
export class StepTools {
  @Field(() => ToolStrategy)
  strategy!: string;

  @Field(() => [ToolDomain], {
    description: 'The domains whose tools the model could call; a call to another is refused.',
  })
  domains!: string[];

  @Field(() => Int, { description: 'Tool definitions sent (every one with MASKED, the visible ones with DYNAMIC).' })
  sent!: number;
}

@ObjectType({ description: 'What memory recall gave a step (its tail), or why it gave nothing.' })
export class StepMemory {
  @Field(() => String, {
    description:
      'recalled; none (nothing fit); timeout or failed (skipped: the step went on without memory); disabled (no memory, or no known sender).',
  })
  status!: string;

  @Field(() => [ID], { description: 'The memory versions shown, best first.' })
  versionIds!: string[];

  @Field(() => String, { nullable: true, description: 'Why recall failed, when it did.' })
  error!: string | null;
}

@ObjectType({ description: "What a step's prompt was made of and cost, as recorded when the step committed." })
export class StepContext {
  @Field(() => [ContextLayerCost], { description: 'In the order the model read them.' })
  layers!: ContextLayerCost[];

  @Field(() => PromptPrefix)
  prefix!: PromptPrefix;

  @Field(() => StepTools)
  tools!: StepTools;

  @Field(() => [ID], { description: "The history segments shown (see `Task.historySegments`), in the prompt's order." })
  segmentIds!: string[];

  @Field(() => Int, { description: "The token budget the prompt was kept under (from the model's context window)." })
  budgetTokens!: number;

  @Field(() => Int)
  promptTokens!: number;

  @Field(() => StepMemory, { nullable: true, description: 'Null on steps committed before memory existed.' })
  memory!: StepMemory | null;
}

@ObjectType({ description: 'A tool call an assistant message proposed.' })
export class PromptToolCall {
  @Field(() => String)
  id!: string;

  @Field(() => String)
  name!: string;

  @Field(() => String, { description: 'The arguments as the model wrote them (JSON text).' })
  arguments!: string;
}

@ObjectType({ description: 'One message of a prompt, exactly as sent.' })
export class PromptMessage {
  @Field(() => ChatRole)
  role!: string;

  @Field(() => String)
  content!: string;

  @Field(() => [PromptToolCall], { description: 'The calls an assistant message proposed; empty for other roles.' })
  toolCalls!: PromptToolCall[];

  @Field(() => String, { nullable: true, description: 'A tool message: the call it answers.' })
  toolCallId!: string | null;
}

@ObjectType({ description: "One layer of a step's prompt with its messages." })
export class PromptLayer {
  @Field(() => PromptLayerName)
  layer!: string;

  @Field(() => Int, {
    nullable: true,
    description: 'Tokens counted when the prompt was built (with the tool definitions for PREFIX); null for UNKNOWN.',
  })
  tokens!: number | null;

  @Field(() => [PromptMessage])
  messages!: PromptMessage[];
}

@ObjectType({ description: 'A tool definition a prompt carried.' })
export class PromptToolDefinition {
  @Field(() => String)
  name!: string;

  @Field(() => String, {
    description: 'The definition as sent (name, description, JSON Schema of the arguments), as JSON text.',
  })
  definitionJson!: string;
}

@ObjectType({
  description:
    "What the model was sent at a step, read back from the prompt archive layer by layer. A prompt archived before layers were kept (format lomo.prompt/1) shows one UNKNOWN layer holding all its messages. A purged prompt shows null layers and tools, with `unavailable` saying why; the step's `context` still says what it was made of.",
})
export class StepPrompt {
  @Field(() => [PromptLayer], { nullable: true, description: 'In the order the model read them; null when purged.' })
  layers!: PromptLayer[] | null;

  @Field(() => [PromptToolDefinition], { nullable: true, description: 'In the order sent; null when purged.' })
  tools!: PromptToolDefinition[] | null;

  @Field(() => [String], {
    nullable: true,
    description:
      'MASKED strategy: the tools the model could call (every definition was sent). Null otherwise: every definition sent could be called.',
  })
  allowedTools!: string[] | null;

  @Field(() => ContentUnavailable, { nullable: true, description: 'Why the prompt cannot be shown; null when it is.' })
  unavailable!: string | null;
}
