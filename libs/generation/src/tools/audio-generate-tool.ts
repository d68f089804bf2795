import { z } from 'zod';
import type { ToolDefinition } from '@lomo/tools';
import type { GenerationRequests } from '../service/generation-requests.port';
import {
  AUDIO_MODES,
  AUDIO_PROMPT_MAX,
  AUDIO_SECONDS_MAX,
  AUDIO_SECONDS_MIN,
  AUDIO_VOICES,
  DEFAULT_AUDIO_SECONDS,
  DEFAULT_AUDIO_VOICE,
} from './media-limits';
import { mediaTool } from './media-tool';

const input = z
  .strictObject({
    mode: z
      .enum(AUDIO_MODES)
      .default('speech')
      .describe('speech: read the prompt aloud; music: compose what it describes'),
    prompt: z
      .string()
      .trim()
      .min(1)
      .max(AUDIO_PROMPT_MAX)
      .describe('speech: the exact text to read; music: the mood, genre, instruments'),
    durationSeconds: z
      .number()
      .int()
      .min(AUDIO_SECONDS_MIN)
      .max(AUDIO_SECONDS_MAX)
      .default(DEFAULT_AUDIO_SECONDS)
      .describe(
        `Length in whole seconds, ${AUDIO_SECONDS_MIN} to ${AUDIO_SECONDS_MAX}; quoted per second (speech: the most the reading may take)`,
      ),
    voice: z.enum(AUDIO_VOICES).optional().describe(`Speech only: the voice (default ${DEFAULT_AUDIO_VOICE})`),
  })
  .superRefine((value, ctx) => {
    // A voice for music would be silently ignored upstream; saying so lets the model correct itself.
    if (value.mode === 'music' && value.voice !== undefined) {
      ctx.addIssue({ code: 'custom', path: ['voice'], message: 'a voice is only for speech' });
    }
  });

export type AudioGenerateInput = z.infer<typeof input>;

export function audioGenerateTool(requests: GenerationRequests): ToolDefinition<AudioGenerateInput> {
  return mediaTool(requests, {
    name: 'audio.generate',
    description:
      "Make audio: speech (a voice reading a text) or music from a description. Paid per second: the quote may need the person's approval. The audio arrives later as this call's result and as an artefact.",
    domain: 'audio',
    kind: 'audio',
    input,
    order: (value) => ({
      prompt: value.prompt,
      options: {
        mode: value.mode,
        durationSeconds: value.durationSeconds,
        voice: value.mode === 'speech' ? (value.voice ?? DEFAULT_AUDIO_VOICE) : undefined,
      },
    }),
  });
}
