export const NOTIFIER_SETTINGS = Symbol('NOTIFIER_SETTINGS');
/** The notifier's own DocumentStore connection (webhooks, cursors, stream states, dead letters). */
export const NOTIFIER_DOCUMENTS = Symbol('NOTIFIER_DOCUMENTS');
export const WEBHOOK_TRANSPORT = Symbol('WEBHOOK_TRANSPORT');
/** The DeliveryEngine, or null in a process that only serves the WebhookService (the API). */
export const DELIVERY_ENGINE = Symbol('DELIVERY_ENGINE');
/** The SecretBox sealing webhook signing secrets at rest, keyed by LOMO_SECRETS_KEY. */
export const SECRET_BOX = Symbol('SECRET_BOX');
