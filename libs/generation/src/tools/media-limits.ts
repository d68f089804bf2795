/**
 * What the media tools accept, in one place. Every combination listed here has a price in the
 * providers' tables (openai/openai-images-provider.ts, openai/openai-videos-provider.ts, and the
 * simulated provider's per-kind units in simulated/prices.ts), so whatever the schema lets
 * through can be quoted before anything is sent.
 */

/** gpt-image-1 sizes priced in DEFAULT_IMAGE_PRICES (square, portrait, landscape). */
export const IMAGE_SIZES = ['1024x1024', '1024x1536', '1536x1024'] as const;
/** Qualities priced in DEFAULT_IMAGE_PRICES, cheapest first. */
export const IMAGE_QUALITIES = ['low', 'medium', 'high'] as const;
/** The images API's backgrounds; 'transparent' needs a format with alpha. */
export const IMAGE_BACKGROUNDS = ['auto', 'opaque', 'transparent'] as const;
export const IMAGE_FORMATS = ['png', 'jpeg', 'webp'] as const;
/** gpt-image-1's own prompt limit. */
export const IMAGE_PROMPT_MAX = 32_000;
/** image.edit: the images API takes up to this many reference images in our use (one request). */
export const IMAGE_EDIT_REFERENCES_MAX = 4;

/** Sizes and lengths each video model is priced at (DEFAULT_VIDEO_PRICES, the SDK's VideoSeconds). */
export const VIDEO_MODELS = {
  'sora-2': { sizes: ['720x1280', '1280x720'], seconds: [4, 8, 12] },
  'sora-2-pro': { sizes: ['720x1280', '1280x720', '1024x1792', '1792x1024'], seconds: [4, 8, 12] },
} as const;
export type VideoModel = keyof typeof VIDEO_MODELS;
export const VIDEO_MODEL_NAMES = Object.keys(VIDEO_MODELS) as VideoModel[];
export const VIDEO_SIZES = ['720x1280', '1280x720', '1024x1792', '1792x1024'] as const;
export const VIDEO_SECONDS = [4, 8, 12] as const;
/** Our limit: a shot description, not a script (the contract allows 32 000). */
export const VIDEO_PROMPT_MAX = 4_000;

export const MODEL_3D_FORMATS = ['glb', 'gltf'] as const;
export const MODEL_3D_PROMPT_MAX = 2_000;

export const AUDIO_MODES = ['speech', 'music'] as const;
/** The speech voices of OpenAI's text-to-speech models. */
export const AUDIO_VOICES = [
  'alloy',
  'ash',
  'ballad',
  'coral',
  'echo',
  'fable',
  'nova',
  'onyx',
  'sage',
  'shimmer',
  'verse',
] as const;
export const DEFAULT_AUDIO_VOICE = 'alloy';
/** Audio is billed per started second; the simulated provider refuses more than 600. */
export const AUDIO_SECONDS_MIN = 1;
export const AUDIO_SECONDS_MAX = 600;
export const DEFAULT_AUDIO_SECONDS = 10;
/** The text-to-speech input limit; music prompts are held to the same. */
export const AUDIO_PROMPT_MAX = 4_096;
