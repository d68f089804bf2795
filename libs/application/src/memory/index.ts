export { MemoryCommandsModule } from './memory-commands.module';
export { RequestMemoryForgettingHandler, ConfirmMemoryForgettingHandler } from './memory-command-handlers';
export { MEMORY_COMMAND_FOLDS_KEPT } from './memory-command-streams';
export {
  CorrectPersonMemory,
  RequestMemoryForgetting,
  ConfirmMemoryForgetting,
  CancelMemoryForgetting,
  type PersonOnMemory,
  type MemoryWriteResult,
  type CorrectionResult as MemoryCorrectionResult,
  type ForgettingImpact,
  type ForgettingResult,
  type ForgettingRequestResult,
} from './memory-commands';
export { forgettingImpact } from './forgetting-impact';
