export { replayTurn, type ReplaySources } from './replay-turn';
export type { ReplayDeps } from './replay-runtime-deps';
export { ReplaySideEffectError } from './replay-runtime-deps';
export type * from './replay.types';
export { parsePromptPatch, promptPatchSchema, type PromptPatch, type PromptRewrite } from './prompt-patch';
export {
  StepBeyondTurnError,
  PromptPatchRefusedError,
  ReplayScriptRefusedError,
  ReplayModelRefusedError,
} from './replay-errors';
export { parseReplayScript, replayScriptSchema, type ReplayScript } from './replay-script';
export { CopyOnWriteBlobStore } from './copy-on-write-blobs';
export { compareContext, promptHash } from './prompt-fingerprint';
export {
  replaySetupFromConfig,
  replayModelFromConfig,
  REPLAY_MODELS,
  type ReplayModelName,
} from './replay-setup-from-config';
