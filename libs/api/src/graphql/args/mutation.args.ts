import { ArgsType, Field, ID } from '@nestjs/graphql';
import { z } from 'zod';
import { languageTag } from '@lomo/contracts';
import { entityId, messageText, optional, reason } from './input-schemas';

@ArgsType()
export class SendMessageArgs {
  @Field(() => String)
  text!: string;

  @Field(() => ID, { nullable: true, description: 'Send to this task explicitly.' })
  taskId?: string | null;

  @Field(() => String, { nullable: true, description: '`artifact:<uuid>[@version][#node]`.' })
  artifactRef?: string | null;

  @Field(() => String, {
    nullable: true,
    description: 'Your id for this message: a retry with it returns the first result.',
  })
  clientMessageId?: string | null;

  @Field(() => String, { nullable: true, description: 'BCP 47 tag; detected from the text when absent.' })
  language?: string | null;
}

@ArgsType()
export class WithdrawMessageArgs {
  @Field(() => ID)
  messageId!: string;
}

@ArgsType()
export class ReplaceMessageArgs {
  @Field(() => ID)
  messageId!: string;

  @Field(() => String)
  text!: string;

  @Field(() => String, { nullable: true, description: 'BCP 47 tag; detected from the text when absent.' })
  language?: string | null;
}

@ArgsType()
export class TaskArgs {
  @Field(() => ID)
  taskId!: string;
}

@ArgsType()
export class TaskWithReasonArgs extends TaskArgs {
  @Field(() => String, { nullable: true })
  reason?: string | null;
}

export const withdrawMessageSchema = z.strictObject({ messageId: entityId });
export const replaceMessageSchema = z.strictObject({
  messageId: entityId,
  text: messageText,
  language: optional(languageTag),
});
export const taskSchema = z.strictObject({ taskId: entityId });
export const taskWithReasonSchema = z.strictObject({ taskId: entityId, reason: optional(reason) });
