import { z } from 'zod';
import type { ToolDefinition } from '@lomo/tools';
import type { GenerationRequests } from '../service/generation-requests.port';
import {
  IMAGE_BACKGROUNDS,
  IMAGE_EDIT_REFERENCES_MAX,
  IMAGE_FORMATS,
  IMAGE_PROMPT_MAX,
  IMAGE_QUALITIES,
  IMAGE_SIZES,
} from './media-limits';
import { mediaTool } from './media-tool';

// Defaults are the provider's own (openai-images-provider.ts: 1024x1024, medium), so a call that
// names nothing is quoted as what the upstream would make.
const imageFields = {
  size: z
    .enum(IMAGE_SIZES)
    .default('1024x1024')
    .describe('Width x height in pixels: 1024x1024 square, 1024x1536 portrait (posters), 1536x1024 landscape'),
  quality: z
    .enum(IMAGE_QUALITIES)
    .default('medium')
    .describe('Rendering quality; higher costs more (the quote is shown before anything is paid)'),
  background: z
    .enum(IMAGE_BACKGROUNDS)
    .default('auto')
    .describe('Background; transparent needs outputFormat png or webp'),
  outputFormat: z.enum(IMAGE_FORMATS).default('png').describe('File format of the image'),
};

type ImageFields = { background: (typeof IMAGE_BACKGROUNDS)[number]; outputFormat: (typeof IMAGE_FORMATS)[number] };

/** JPEG has no alpha channel: a transparent JPEG would be refused upstream after the quote. */
const alphaNeedsFormat = (input: ImageFields, ctx: z.RefinementCtx) => {
  if (input.background === 'transparent' && input.outputFormat === 'jpeg') {
    ctx.addIssue({ code: 'custom', path: ['outputFormat'], message: 'a transparent background needs png or webp' });
  }
};

const generateInput = z
  .strictObject({
    prompt: z
      .string()
      .trim()
      .min(1)
      .max(IMAGE_PROMPT_MAX)
      .describe('What the image shows: subject, style, text to print on it (a poster title), in any language'),
    ...imageFields,
  })
  .superRefine(alphaNeedsFormat);

const editInput = z
  .strictObject({
    prompt: z.string().trim().min(1).max(IMAGE_PROMPT_MAX).describe('What to change in the reference images'),
    referenceArtifactIds: z
      .array(z.uuid().describe('Id of an image artefact of this workspace'))
      .min(1)
      .max(IMAGE_EDIT_REFERENCES_MAX)
      .refine((ids) => new Set(ids).size === ids.length, 'the same artefact is listed twice')
      .describe(`Images to edit (their latest version), 1 to ${IMAGE_EDIT_REFERENCES_MAX} artefact ids`),
    ...imageFields,
  })
  .superRefine(alphaNeedsFormat);

export type ImageGenerateInput = z.infer<typeof generateInput>;
export type ImageEditInput = z.infer<typeof editInput>;

const optionsOf = (input: ImageGenerateInput) => ({
  size: input.size,
  quality: input.quality,
  background: input.background,
  outputFormat: input.outputFormat,
});

export function imageGenerateTool(requests: GenerationRequests): ToolDefinition<ImageGenerateInput> {
  return mediaTool(requests, {
    name: 'image.generate',
    description:
      "Make one image (picture, poster, illustration, photo) from a text prompt. Paid: the quote may need the person's approval. Takes a while: the image arrives later as this call's result and as an artefact in the workspace.",
    domain: 'image',
    kind: 'image',
    input: generateInput,
    order: (input) => ({ prompt: input.prompt, options: optionsOf(input) }),
  });
}

export function imageEditTool(requests: GenerationRequests): ToolDefinition<ImageEditInput> {
  return mediaTool(requests, {
    name: 'image.edit',
    description:
      "Edit images of the workspace (1 to 4 reference artefacts) by a text prompt into one new image. Paid: the quote may need the person's approval. The result arrives later as this call's result and as a new artefact.",
    domain: 'image',
    kind: 'image',
    input: editInput,
    order: (input) => ({
      prompt: input.prompt,
      options: optionsOf(input),
      referenceArtifactIds: input.referenceArtifactIds,
    }),
  });
}
