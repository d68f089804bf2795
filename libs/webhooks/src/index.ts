export { NotifierModule, type NotifierModuleOptions } from './notifier.module';
export { notifierSettings, type NotifierSettings } from './notifier-settings';
export * from './notifier-tokens';
export {
  WebhookService,
  type WebhookServiceDeps,
  type WebhookWithSecret,
  type RotatedSecret,
} from './webhooks/webhook-service';
export type {
  WebhookView,
  DeadLetterView,
  DeadLetterPage,
  WorkspaceDeadLetterView,
  WorkspaceDeadLetterPage,
} from './webhooks/webhook-views';
export { createNotifierDocuments } from './create-notifier-documents';
export type { RegisterWebhookInput, PageInput } from './webhooks/webhook-input';
export * from './webhooks/webhook-errors';
export { SecretBox } from './webhooks/secret-box';
export { HOST_RESOLVER, type HostResolver, type ResolvedAddress } from './webhooks/host-resolver.port';
export { DnsHostResolver } from './webhooks/dns-host-resolver';
export { classifyAddress, type AddressClass } from './webhooks/address-class';
export type { DeadLetterStatus } from './webhooks/webhook-documents';
export {
  verifyWebhookSignature,
  signatureHeader,
  SIGNATURE_HEADER,
  EVENT_ID_HEADER,
  EVENT_TYPE_HEADER,
  DEFAULT_TOLERANCE_SECONDS,
  type SignatureVerification,
} from './delivery/webhook-signature';
export type { DeliveryBody } from './delivery/delivery-request';
export { DeliveryEngine, type DeliveryEngineOptions } from './delivery/delivery-engine';
export {
  HttpWebhookTransport,
  type WebhookTransport,
  type WebhookRequest,
  type DeliveryOutcome,
} from './delivery/http-transport';
export { EventSelection, webhookAudience } from './webhooks/event-selection';
export type { WebhookRegistrant } from './webhooks/webhook-documents';
