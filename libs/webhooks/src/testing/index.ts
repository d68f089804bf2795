// Test support for @lomo/webhooks: the stored document shapes, for tests that inspect what is at rest.
export { Collections, type StreamDocument, type WebhookDocument } from '../webhooks/webhook-documents';
export { sealEntries } from '../webhooks/webhook-secrets';
export { FakeHostResolver } from './fake-host-resolver';
