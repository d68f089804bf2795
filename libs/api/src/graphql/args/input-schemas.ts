import { z } from 'zod';
import { artifactRef, languageTag, mainEvents, uuid, zodIssues, validationFailed } from '@lomo/contracts';
import { DEFAULT_PAGE_SIZE, MAX_PAGE_SIZE } from '../../api-settings';

// Zod schemas of every argument. GraphQL checks types; these check what types cannot say
// (formats, ranges, lengths), with the same rules the event contracts apply on append.

export const optional = <T extends z.ZodType>(schema: T) => schema.nullish().transform((v) => v ?? undefined);

export const pageArgs = {
  first: z.number().int().min(1).max(MAX_PAGE_SIZE).default(DEFAULT_PAGE_SIZE),
  after: optional(z.string().min(1).max(8_192)),
};
export const consistentWith = optional(z.string().min(1).max(8_192));

export const entityId = uuid;
export const messageText = mainEvents.UserMessageReceived.shape.text;
export const clientMessageId = z.string().regex(/^[A-Za-z0-9_.:-]{1,128}$/, '1-128 of [A-Za-z0-9_.:-]');
export const reason = z.string().trim().min(1).max(2_000);

export const sendMessageInput = z.strictObject({
  text: messageText,
  taskId: optional(entityId),
  artifactRef: optional(artifactRef),
  clientMessageId: optional(clientMessageId),
  language: optional(languageTag),
});

/** Parses with a schema, refusing with VALIDATION_FAILED and every issue's path. */
export function validate<T extends z.ZodType>(schema: T, input: unknown): z.output<T> {
  const parsed = schema.safeParse(input);
  if (!parsed.success) throw validationFailed(zodIssues(parsed.error));
  return parsed.data;
}
