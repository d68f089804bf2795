import { z } from 'zod';
import type { ToolDefinition } from '@lomo/tools';
import type { GenerationRequests } from '../service/generation-requests.port';
import { MODEL_3D_FORMATS, MODEL_3D_PROMPT_MAX } from './media-limits';
import { mediaTool } from './media-tool';

// Named model3d.generate, not 3d.generate: tool names must start with a letter (TOOL_NAME_PATTERN,
// the event contracts' toolName). One model per call: the quote is one `model` unit
// (simulated/prices.ts), so nothing else is offered.
const input = z.strictObject({
  prompt: z
    .string()
    .trim()
    .min(1)
    .max(MODEL_3D_PROMPT_MAX)
    .describe('The object to model (shape, material, style); with a reference image, what to keep of it'),
  referenceArtifactId: z
    .uuid()
    .optional()
    .describe('Image artefact to turn into a 3D model (image to 3D); omit for text to 3D'),
  format: z.enum(MODEL_3D_FORMATS).default('glb').describe('glb (one binary file) or gltf (JSON glTF 2.0)'),
});

export type Model3dGenerateInput = z.infer<typeof input>;

export function model3dGenerateTool(requests: GenerationRequests): ToolDefinition<Model3dGenerateInput> {
  return mediaTool(requests, {
    name: 'model3d.generate',
    description:
      "Make one 3D model from a text prompt or a reference image artefact, as glb or gltf. Paid: the quote may need the person's approval. The model arrives later as this call's result and as an artefact.",
    domain: '3d',
    kind: '3d',
    input,
    order: (value) => ({
      prompt: value.prompt,
      options: { format: value.format },
      referenceArtifactIds: value.referenceArtifactId === undefined ? [] : [value.referenceArtifactId],
    }),
  });
}
