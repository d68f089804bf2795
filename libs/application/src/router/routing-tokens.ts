/** The model the router asks (its own token: tests script the executor's model without touching routing). */
export const ROUTING_MODEL = Symbol('ROUTING_MODEL');
export const ROUTING_SETTINGS = Symbol('ROUTING_SETTINGS');
/** Bound on one routing model call; past it the person is asked instead (a message is never held hostage). */
export const ROUTING_TIMEOUT_MS = Symbol('ROUTING_TIMEOUT_MS');
