export {
  OpenAiImagesProvider,
  DEFAULT_IMAGE_PRICES,
  type ImagePriceTable,
  type OpenAiImagesProviderOptions,
} from './openai-images-provider';
export {
  OpenAiVideosProvider,
  DEFAULT_VIDEO_PRICES,
  type OpenAiVideosProviderOptions,
  type VideoPriceTable,
} from './openai-videos-provider';
export type { OpenAiConnectionOptions } from './openai-common';
export { DEFAULT_WEBHOOK_TOLERANCE_SECONDS } from './standard-webhook';
