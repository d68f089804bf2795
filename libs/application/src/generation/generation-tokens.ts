/** The process's GenerationService (libs/generation/src/service/generation-service.ts). */
export const GENERATION_SERVICE = Symbol('GENERATION_SERVICE');
/** The document store of the upstream index and the callback ledger (the read models' store). */
export const GENERATION_DOCUMENTS = Symbol('GENERATION_DOCUMENTS');
/** The simulated upstream this process reaches: { url, callbackSecret, stop } (child or external). */
export const SIM_UPSTREAM = Symbol('SIM_UPSTREAM');
