export {
  GenerationModule,
  GenerationOrdersModule,
  callbackBaseUrl,
  type GenerationModuleOptions,
} from './generation.module';
export { GENERATION_SERVICE } from './generation-tokens';
export { GenerationCallbackController, CALLBACK_MAX_BYTES } from './generation-callback.controller';
