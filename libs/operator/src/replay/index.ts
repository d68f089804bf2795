export { replayTurn, type ReplaySources } from './replay-turn';
export type { ReplayDeps } from './replay-runtime-deps';
export { ReplaySideEffectError } from './replay-runtime-deps';
export type * from './replay.types';
export { parsePromptPatch, promptPatchSchema, type PromptPatch, type PromptRewrite } from './prompt-patch';
export { StepBeyondTurnError, PromptPatchRefusedError } from './replay-errors';
export { CopyOnWriteBlobStore } from './copy-on-write-blobs';
export { compareContext, promptHash } from './prompt-fingerprint';
