export const PROJECTOR_SETTINGS = Symbol('PROJECTOR_SETTINGS');
export const PROJECTION_RUNNER = Symbol('PROJECTION_RUNNER');
export const PROJECTION_FEED = Symbol('PROJECTION_FEED');
export const PROJECTOR_HEALTH_CHECK = Symbol('PROJECTOR_HEALTH_CHECK');
/** Queries over the read models (ReadModels), for the API. */
export const READ_MODELS = Symbol('READ_MODELS');
/** Consistency-token checks (ReadModelConsistency), for the API. */
export const READ_MODEL_CONSISTENCY = Symbol('READ_MODEL_CONSISTENCY');
