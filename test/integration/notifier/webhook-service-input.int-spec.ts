import { randomUUID } from 'node:crypto';
import { ValidationError } from '@lomo/contracts';
import { silentLogger } from '@lomo/observability';
import {
  WebhookLimitReachedError,
  WebhookNotFoundError,
  WebhookService,
  WebhookTargetForbiddenError,
} from '@lomo/webhooks';
import { FakeHostResolver } from '@lomo/webhooks/testing';
import { TaskStream } from './support/events';
import { eventually, startNotifier, testSettings, type NotifierHarness } from './support/notifier-harness';
import { TestReceiver } from './support/test-receiver';

/** The paths of a ValidationError's issues, or the error itself when it is something else. */
async function issuePaths(call: Promise<unknown>): Promise<string[]> {
  const error = await call.then(
    () => undefined,
    (e: unknown) => e,
  );
  if (!(error instanceof ValidationError)) throw new Error(`expected a ValidationError, got ${String(error)}`);
  return error.issues.map((i) => i.path);
}

describe('WebhookService input: zod-validated, typed errors, nothing written on refusal', () => {
  let notifier: NotifierHarness;
  const url = 'http://127.0.0.1:9/hooks';

  beforeAll(async () => {
    notifier = await startNotifier({ settings: { maxWebhooksPerWorkspace: 3, maxAttempts: 1 } });
  });

  afterAll(() => notifier.close());

  it('refuses URLs that are not http(s), carry credentials or are not absolute', async () => {
    const { service } = notifier;
    for (const bad of ['ftp://127.0.0.1/x', 'http://user:pw@127.0.0.1/x', '/relative', 'javascript:alert(1)']) {
      expect(await issuePaths(service.register('ws_in', { url: bad, eventTypes: ['task'] }))).toEqual(['input.url']);
    }
    expect(await service.list('ws_in')).toEqual([]);
  });

  it('in production only https, except allowlisted hosts, and no literal private addresses', async () => {
    const resolver = new FakeHostResolver().set('hooks.example.com', '93.184.216.34');
    const production = new WebhookService({
      documents: notifier.documents,
      events: notifier.events,
      clock: { now: () => new Date() },
      ids: { uuid: () => randomUUID() },
      settings: { ...testSettings, production: true, httpAllowlist: ['127.0.0.1'] },
      logger: silentLogger,
      secretBox: notifier.secretBox,
      resolver,
    });
    const register = (u: string) => production.register('ws_prod', { url: u, eventTypes: ['task'] });
    expect(await issuePaths(register('http://hooks.example.com/x'))).toEqual(['input.url']);
    // Where a valid URL points is not an input-shape problem: its own typed error.
    await expect(register('https://10.1.2.3/x')).rejects.toBeInstanceOf(WebhookTargetForbiddenError);
    await expect(register('https://localhost/x')).rejects.toBeInstanceOf(WebhookTargetForbiddenError);
    expect(await production.list('ws_prod')).toEqual([]);
    expect((await register('http://127.0.0.1:8080/x')).webhook.url).toBe('http://127.0.0.1:8080/x');
    expect((await register('https://hooks.example.com/x')).webhook.url).toBe('https://hooks.example.com/x');
  });

  it('validates event types and categories against the contracts registry', async () => {
    const { service } = notifier;
    expect(await issuePaths(service.register('ws_in', { url, eventTypes: ['NoSuchEvent', 'task'] }))).toEqual([
      'input.eventTypes.0',
    ]);
    expect(await issuePaths(service.register('ws_in', { url, eventTypes: [] }))).toEqual(['input.eventTypes']);
    expect(await issuePaths(service.register('ws_in', { url, eventTypes: ['task'], secret: 'short' }))).toEqual([
      'input.secret',
    ]);
    expect(await issuePaths(service.register('Not A Slug', { url, eventTypes: ['task'] }))).toEqual(['workspaceId']);
    const { webhook } = await service.register('ws_in', { url, eventTypes: ['main', 'TaskCreated', 'TaskCreated'] });
    expect(webhook.eventTypes).toEqual(['main', 'TaskCreated']);
  });

  it('answers a malformed id with a ValidationError and an unknown one with WebhookNotFoundError', async () => {
    expect(await issuePaths(notifier.service.get('ws_in', 'nope'))).toEqual(['webhookId']);
    await expect(notifier.service.get('ws_in', randomUUID())).rejects.toBeInstanceOf(WebhookNotFoundError);
  });

  it('bounds the webhooks of a workspace', async () => {
    const { service } = notifier;
    while ((await service.list('ws_full')).length < 3) await service.register('ws_full', { url, eventTypes: ['task'] });
    await expect(service.register('ws_full', { url, eventTypes: ['task'] })).rejects.toBeInstanceOf(
      WebhookLimitReachedError,
    );
  });

  it('pages dead letters with first/after and refuses a foreign cursor', async () => {
    const receiver = await TestReceiver.start(() => 500);
    try {
      const { webhook } = await notifier.service.register('ws_pages', { url: receiver.url, eventTypes: ['task'] });
      for (let i = 0; i < 3; i += 1) await new TaskStream(notifier.events, 'ws_pages').append();
      const all = () => notifier.service.deadLetters('ws_pages', webhook.id, { first: 100 });
      await eventually(async () => (await all()).items.length === 3, 'three dead letters');

      const page1 = await notifier.service.deadLetters('ws_pages', webhook.id, { first: 2 });
      expect(page1.items).toHaveLength(2);
      expect(page1.hasMore).toBe(true);
      const page2 = await notifier.service.deadLetters('ws_pages', webhook.id, {
        first: 2,
        after: page1.endCursor ?? '',
      });
      expect(page2.items).toHaveLength(1);
      expect(page2.hasMore).toBe(false);
      expect([...page1.items, ...page2.items].map((d) => d.id)).toEqual((await all()).items.map((d) => d.id));
      expect(
        await issuePaths(notifier.service.deadLetters('ws_pages', webhook.id, { first: 2, after: 'bogus' })),
      ).toEqual(['page.after']);
      expect(await issuePaths(notifier.service.deadLetters('ws_pages', webhook.id, { first: 0 }))).toEqual([
        'page.first',
      ]);
    } finally {
      await receiver.close();
    }
  });
});
