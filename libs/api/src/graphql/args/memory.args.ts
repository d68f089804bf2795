import { ArgsType, Field, ID, Int } from '@nestjs/graphql';
import { z } from 'zod';
import { isoDateTime, languageTag, userId, workspaceId } from '@lomo/contracts';
import { DEFAULT_PAGE_SIZE, MAX_PAGE_SIZE } from '../../api-settings';
import { MemoryScopeFilter, MemoryStatus } from '../types/memory-enums';
import { clientMessageId, consistentWith, entityId, optional, pageArgs } from './input-schemas';

const consistentWithDescription =
  'A consistency token from a mutation: the query waits (bounded) until the read models show that change.';

/** Whose memory to read: yours unless you are an operator (every operator read is logged). */
@ArgsType()
export class MemoryOwnerArgs {
  @Field(() => String, { nullable: true, description: consistentWithDescription })
  consistentWith?: string | null;

  @Field(() => String, { nullable: true, description: 'Operators only: the workspace (default yours).' })
  workspaceId?: string | null;

  @Field(() => String, { nullable: true, description: 'Operators only: whose memory (default yours).' })
  userId?: string | null;
}

const ownerArgs = { consistentWith, workspaceId: optional(workspaceId), userId: optional(userId) };

@ArgsType()
export class MemoriesArgs extends MemoryOwnerArgs {
  @Field(() => MemoryScopeFilter, { defaultValue: MemoryScopeFilter.ALL })
  scope!: MemoryScopeFilter;

  @Field(() => ID, { nullable: true, description: 'Only the memories local to this task.' })
  taskId?: string | null;

  @Field(() => MemoryStatus, { nullable: true, description: 'Only memories of this status; all when absent.' })
  status?: MemoryStatus | null;

  @Field(() => Int, { defaultValue: DEFAULT_PAGE_SIZE, description: `Page size, 1 to ${MAX_PAGE_SIZE}.` })
  first!: number;

  @Field(() => String, { nullable: true })
  after?: string | null;
}

export const memoriesArgsSchema = z
  .strictObject({
    ...pageArgs,
    ...ownerArgs,
    scope: z.enum(MemoryScopeFilter).default(MemoryScopeFilter.ALL),
    taskId: optional(entityId),
    status: optional(z.enum(MemoryStatus)),
  })
  .refine((a) => a.taskId === undefined || a.scope !== MemoryScopeFilter.LONG_TERM, {
    path: ['taskId'],
    message: 'long-term memories belong to no task',
  });

@ArgsType()
export class MemoryByIdArgs extends MemoryOwnerArgs {
  @Field(() => ID)
  id!: string;
}

export const memoryOwnerArgsSchema = z.strictObject(ownerArgs);
export const memoryByIdArgsSchema = z.strictObject({ ...ownerArgs, id: entityId });

@ArgsType()
export class ForgetMemoryArgs {
  @Field(() => ID, { nullable: true, description: 'Forget this memory: the evidence behind its versions.' })
  memoryId?: string | null;

  @Field(() => [ID], { nullable: true, description: 'Or forget these pieces of evidence (1 to 100).' })
  evidenceIds?: string[] | null;

  @Field(() => String, {
    nullable: true,
    description: 'Your id for this request: a retry with it returns the same pending forgetting.',
  })
  clientRequestId?: string | null;
}

export const forgetMemoryArgsSchema = z
  .strictObject({
    memoryId: optional(entityId),
    evidenceIds: optional(z.array(entityId).min(1).max(100)),
    clientRequestId: optional(clientMessageId),
  })
  .refine((a) => (a.memoryId === undefined) !== (a.evidenceIds === undefined), {
    path: ['memoryId'],
    message: 'give either memoryId or evidenceIds',
  });

@ArgsType()
export class ForgettingIdArgs {
  @Field(() => ID)
  forgettingId!: string;
}

export const forgettingIdArgsSchema = z.strictObject({ forgettingId: entityId });

@ArgsType()
export class CorrectMemoryArgs {
  @Field(() => ID)
  memoryId!: string;

  @Field(() => String, {
    description: "The corrected claim, as people and prompts read it: “The brand's main colour is green.”",
  })
  text!: string;

  @Field(() => String, {
    nullable: true,
    description: 'The value itself (“green”), which identifies the claim when it is forgotten; default the text.',
  })
  value?: string | null;

  @Field(() => String, {
    nullable: true,
    description: 'ISO 8601: since when the correction holds (default now); the old version answers until then.',
  })
  validFrom?: string | null;

  @Field(() => String, { nullable: true, description: 'BCP 47 tag; detected from the text when absent.' })
  language?: string | null;

  @Field(() => String, { nullable: true, description: 'Your id for this correction: a retry with it is a no-op.' })
  clientCorrectionId?: string | null;
}

const oneLine = z
  .string()
  .trim()
  .regex(/^[^\r\n]*$/, 'one line');

export const correctMemoryArgsSchema = z.strictObject({
  memoryId: entityId,
  // One line each: the stored text is the claim, then `subject = value` on a line of its own.
  text: oneLine.min(1).max(300),
  value: optional(oneLine.min(1).max(120)),
  validFrom: optional(isoDateTime),
  language: optional(languageTag),
  clientCorrectionId: optional(clientMessageId),
});
