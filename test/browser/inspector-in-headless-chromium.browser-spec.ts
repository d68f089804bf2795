import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { chromium, type BrowserContext, type Page } from 'playwright-core';
import { SYSTEM_RULES } from '@lomo/runtime';
import { SEND_MESSAGE, sendAndSettle } from '../integration/api/support/queries';
import { startStandaloneApi, type RunningApi } from '../integration/api/support/standalone-api';

import { chromiumPath } from './chromium';

/** Debian's chromium, with everything that would reach the network switched off. */
const CHROMIUM = chromiumPath();
const CHROMIUM_ARGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];
const SCREENSHOT = path.join(tmpdir(), 'lomo-inspector.png');
// A note: its first step calls notes.create, so the step has a ledger entry to show.
const BRIEF = 'Please take a note: buy oat milk for the lighthouse keeper';

const TURN_LAYERS = `query($id: ID!) {
  operatorTurnInspection(turnId: $id, prompts: true) { steps { step prompt { layers { layer } } } }
}`;

async function useToken(page: Page, token: string): Promise<void> {
  await page.fill('#token', token);
  await page.click('#token-form button[type=submit]');
}

async function search(page: Page, words: string): Promise<void> {
  await page.fill('#search', words);
  await page.click('#search-form button[type=submit]');
}

describe('operator inspector in headless Chromium', () => {
  let api: RunningApi;
  let profile: string;
  let context: BrowserContext;
  const tokens: Record<'person' | 'operator', { id: string; token: string }> = {} as never;
  let work: { taskId: string; turnId: string };

  const createToken = async (workspace: string, user: string, kind: string) => {
    const args = ['create', '--workspace', workspace, '--user', user, '--name', user, '--kind', kind];
    const result = await api.tokens(args);
    if (result.code !== 0) throw new Error(`lomo tokens create failed: ${result.stderr}`);
    return JSON.parse(result.stdout.trim()) as { id: string; token: string };
  };

  beforeAll(async () => {
    api = await startStandaloneApi();
    [tokens.person, tokens.operator] = await Promise.all([
      createToken('ws_a', 'alice', 'person'),
      createToken('ops', 'sam', 'operator'),
    ]);
    work = await sendAndSettle(api, tokens.person.token, BRIEF);
    profile = mkdtempSync(path.join(tmpdir(), 'lomo-chromium-'));
    context = await chromium.launchPersistentContext(profile, {
      executablePath: CHROMIUM,
      args: CHROMIUM_ARGS,
      headless: true,
      viewport: { width: 1280, height: 900 },
    });
  }, 120_000);

  afterAll(async () => {
    await context?.close();
    if (profile) rmSync(profile, { recursive: true, force: true });
    await api?.stop();
  });

  it("loads from the API's origin only, refuses a person's token, and shows an operator a task's timeline, a step's prompt by layer, and the task live", async () => {
    const page = await context.newPage();
    const foreign: string[] = [];
    const problems: string[] = [];
    const wsOrigin = api.url.replace(/^http/, 'ws');
    // No network beyond the API: anything else is aborted, and recorded so the test fails on it.
    await page.route('**/*', (route) => {
      if (route.request().url().startsWith(api.url)) return route.continue();
      foreign.push(route.request().url());
      return route.abort();
    });
    page.on('websocket', (socket) => {
      if (!socket.url().startsWith(wsOrigin)) foreign.push(socket.url());
    });
    page.on('console', (message) => {
      if (message.type() === 'error') problems.push(message.text());
    });
    page.on('pageerror', (error) => problems.push(error.message));

    const loaded = await page.goto(`${api.url}/inspector`);
    expect(loaded?.status()).toBe(200);
    expect(loaded?.headers()['content-security-policy']).toMatch(/^default-src 'self'; script-src 'self'/);
    await expect(page.title()).resolves.toBe('Lomo inspector');

    // A person's token (of the very workspace of the task): the refusal, and no task.
    await useToken(page, tokens.person.token);
    await search(page, 'lighthouse');
    const refusal = page.locator('#error.refusal');
    await refusal.waitFor({ timeout: 20_000 });
    expect(await refusal.innerText()).toContain('FORBIDDEN');
    expect(await page.locator('#task-list li').count()).toBe(0);

    // The operator's token: kept for the tab only.
    await useToken(page, tokens.operator.token);
    expect(await page.evaluate('window.sessionStorage.getItem("lomo:operatorToken")')).toBe(tokens.operator.token);
    expect(await page.evaluate('window.localStorage.getItem("lomo:operatorToken")')).toBeNull();
    await search(page, 'lighthouse keeper');
    const taskLink = page.locator(`.task-link[data-task-id="${work.taskId}"]`);
    await taskLink.waitFor({ timeout: 20_000 });
    expect(await page.locator('#error').isHidden()).toBe(true);
    expect(await taskLink.innerText()).toContain('ws_a');

    // The task: its timeline, with the committed step among its entries.
    await taskLink.click();
    const rows = page.locator('#timeline-rows tr');
    await rows.first().waitFor({ timeout: 20_000 });
    expect((await page.locator('#task-title').innerText()).toLowerCase()).toContain('lighthouse');
    const timeline = await page.locator('#timeline-rows').innerText();
    expect(timeline).toContain('ModelStepCommitted');
    expect(timeline).toContain(`turn-${work.turnId}`);
    expect(await page.locator('#timeline-rows tr[data-kind="step"]').count()).toBeGreaterThan(0);

    // A step: its prompt by layer, as the API gives it, with the system rules and the brief in it.
    const expected = await api.gql<{
      operatorTurnInspection: { steps: Array<{ prompt: { layers: Array<{ layer: string }> } }> };
    }>(tokens.operator.token, TURN_LAYERS, { id: work.turnId });
    const layerNames = expected.data!.operatorTurnInspection.steps[0].prompt.layers.map((l) => l.layer);
    expect(layerNames.length).toBeGreaterThan(1);
    await page.locator(`.step-link[data-turn-id="${work.turnId}"][data-step="1"]`).click();
    const layers = page.locator('#prompt-layers .layer');
    await layers.first().waitFor({ timeout: 20_000 });
    expect(await layers.evaluateAll((nodes) => nodes.map((n) => n.getAttribute('data-layer')))).toEqual(layerNames);
    expect(await layers.first().locator('h4').innerText()).toContain(layerNames[0]);
    const prompt = await page.locator('#prompt-layers').innerText();
    expect(prompt).toContain(SYSTEM_RULES.slice(0, 60));
    expect(prompt).toContain(BRIEF);
    // Its ledger: the tool call the step made, and what became of it.
    const ledger = page.locator('#ledger-rows tr');
    await ledger.first().waitFor({ timeout: 20_000 });
    expect(await ledger.first().innerText()).toMatch(/notes\.create\s+completed/);
    await page.screenshot({ path: SCREENSHOT, fullPage: true });

    // Live: a new message to the task arrives in the timeline without a reload.
    const before = await rows.count();
    await page.check('#follow');
    await page.locator('#live-state', { hasText: 'Following live' }).waitFor({ timeout: 20_000 });
    const sent = await api.gql<unknown>(tokens.person.token, SEND_MESSAGE, {
      text: 'Also add: fresh bread for the fog horn crew.',
      taskId: work.taskId,
    });
    expect(sent.errors).toBeUndefined();
    await page.locator('#live-state', { hasText: 'new event' }).waitFor({ timeout: 30_000 });
    // One more row than before (a string condition would need 'unsafe-eval', which the CSP refuses).
    await rows.nth(before).waitFor({ timeout: 30_000 });
    expect(await page.locator('#timeline-rows').innerText()).toContain('MessageDeliveredToInbox');

    expect(foreign).toEqual([]);
    expect(problems).toEqual([]);
    await page.close();
  }, 120_000);
});
