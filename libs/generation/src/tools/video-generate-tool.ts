import { z } from 'zod';
import type { ToolDefinition } from '@lomo/tools';
import type { GenerationRequests } from '../service/generation-requests.port';
import { VIDEO_MODEL_NAMES, VIDEO_MODELS, VIDEO_PROMPT_MAX, VIDEO_SECONDS, VIDEO_SIZES } from './media-limits';
import { mediaTool } from './media-tool';

const input = z
  .strictObject({
    prompt: z
      .string()
      .trim()
      .min(1)
      .max(VIDEO_PROMPT_MAX)
      .describe('What happens in the clip: subject, action, camera, style; with a reference image, how it moves'),
    model: z
      .enum(VIDEO_MODEL_NAMES as [keyof typeof VIDEO_MODELS, ...Array<keyof typeof VIDEO_MODELS>])
      .default('sora-2')
      .describe('sora-2 (720x1280, 1280x720) or sora-2-pro (also 1024x1792, 1792x1024; costs more per second)'),
    size: z.enum(VIDEO_SIZES).default('720x1280').describe('Width x height in pixels; must be one the model offers'),
    durationSeconds: z
      .literal(VIDEO_SECONDS)
      .default(4)
      .describe('Length in seconds (4, 8 or 12); the price is per second'),
    referenceArtifactId: z
      .uuid()
      .optional()
      .describe('Image artefact to animate (image to video); omit for text to video'),
  })
  .superRefine((value, ctx) => {
    // Every model's sizes and lengths are what its price table covers: anything else cannot be quoted.
    const offered = VIDEO_MODELS[value.model];
    if (!(offered.sizes as readonly string[]).includes(value.size)) {
      ctx.addIssue({
        code: 'custom',
        path: ['size'],
        message: `${value.model} makes ${offered.sizes.join(', ')}, not ${value.size}`,
      });
    }
    if (!(offered.seconds as readonly number[]).includes(value.durationSeconds)) {
      ctx.addIssue({
        code: 'custom',
        path: ['durationSeconds'],
        message: `${value.model} makes ${offered.seconds.join(', ')} seconds`,
      });
    }
  });

export type VideoGenerateInput = z.infer<typeof input>;

export function videoGenerateTool(requests: GenerationRequests): ToolDefinition<VideoGenerateInput> {
  return mediaTool(requests, {
    name: 'video.generate',
    description:
      "Make a short video clip from a text prompt, or animate an image artefact (image to video). Paid per second: the quote may need the person's approval. Takes minutes: the clip arrives later as this call's result and as an artefact.",
    domain: 'video',
    kind: 'video',
    input,
    order: (value) => ({
      prompt: value.prompt,
      options: { model: value.model, size: value.size, durationSeconds: value.durationSeconds },
      referenceArtifactIds: value.referenceArtifactId === undefined ? [] : [value.referenceArtifactId],
    }),
  });
}
