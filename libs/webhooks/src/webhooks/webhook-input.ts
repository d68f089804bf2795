import { z } from 'zod';
import { ValidationError, workspaceId as workspaceIdSchema, zodIssues } from '@lomo/contracts';
import { eventTypeProblem } from './event-selection';
import { urlProblem, type UrlPolicy } from './url-policy';

export const MAX_EVENT_TYPES = 50;
export const MAX_DEAD_LETTER_PAGE = 100;

const secretSchema = z
  .string()
  .min(16, 'at least 16 characters')
  .max(256, 'at most 256 characters')
  .regex(/^[\x21-\x7e]+$/, 'printable ASCII without spaces');

export const registerInputSchema = (policy: UrlPolicy) =>
  z.strictObject({
    url: z.string().superRefine((url, ctx) => {
      const problem = urlProblem(url, policy);
      if (problem !== undefined) ctx.addIssue({ code: 'custom', message: problem });
    }),
    eventTypes: z
      .array(
        z.string().superRefine((entry, ctx) => {
          const problem = eventTypeProblem(entry);
          if (problem !== undefined) ctx.addIssue({ code: 'custom', message: problem });
        }),
      )
      .min(1, 'at least one event type or stream category')
      .max(MAX_EVENT_TYPES)
      .transform((entries) => [...new Set(entries)]),
    /** Generated when absent; either way it is returned once, at registration. */
    secret: secretSchema.optional(),
    description: z.string().max(500).optional(),
  });

export type RegisterWebhookInput = z.input<ReturnType<typeof registerInputSchema>>;

export const idSchema = z.uuid();

/** Positions are opaque: the store itself validates a cursor; 'start' means before the first event. */
export const cursorSchema = z.string().min(1).max(64);

export const pageSchema = z.strictObject({
  first: z.number().int().min(1).max(MAX_DEAD_LETTER_PAGE).default(20),
  after: z.string().min(1).max(2048).optional(),
});

export type PageInput = z.input<typeof pageSchema>;

/** Parses with `schema` or throws a ValidationError whose paths start with `path`. */
export function parseInput<S extends z.ZodType>(schema: S, value: unknown, path: string): z.output<S> {
  const parsed = schema.safeParse(value);
  if (parsed.success) return parsed.data;
  const issues = zodIssues(parsed.error).map((i) => ({
    path: i.path === '(root)' ? path : `${path}.${i.path}`,
    message: i.message,
  }));
  throw new ValidationError(`Invalid ${path}: ${issues.map((i) => `${i.path}: ${i.message}`).join('; ')}`, issues);
}

export const parseWorkspaceId = (value: unknown): string => parseInput(workspaceIdSchema, value, 'workspaceId');
