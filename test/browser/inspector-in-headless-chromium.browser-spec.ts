import { tmpdir } from 'node:os';
import * as path from 'node:path';
import type { Page } from 'playwright-core';
import { SYSTEM_RULES } from '@lomo/runtime';
import { SEND_MESSAGE } from '../integration/api/support/queries';
import { guardPage, openInspectorWorld, useToken, type InspectorWorld } from './inspector-world';

const SCREENSHOT = path.join(tmpdir(), 'lomo-inspector.png');
// A note: its first step calls notes.create, so the step has a ledger entry to show.
const BRIEF = 'Please take a note: buy oat milk for the lighthouse keeper';

const TURN_LAYERS = `query($id: ID!) {
  operatorTurnInspection(turnId: $id, prompts: true) { steps { step prompt { layers { layer } } } }
}`;

async function search(page: Page, words: string): Promise<void> {
  await page.fill('#search', words);
  await page.click('#search-form button[type=submit]');
}

describe('operator inspector in headless Chromium', () => {
  let world: InspectorWorld;
  beforeAll(async () => {
    world = await openInspectorWorld(BRIEF);
  }, 120_000);
  afterAll(async () => world?.close());

  it("loads from the API's origin only, refuses a person's token, and shows an operator a task's timeline, a step's prompt by layer, and the task live", async () => {
    const page = await world.context.newPage();
    const { foreign, problems } = await guardPage(page, world.api.url);

    const loaded = await page.goto(`${world.api.url}/inspector`);
    expect(loaded?.status()).toBe(200);
    expect(loaded?.headers()['content-security-policy']).toMatch(/^default-src 'self'; script-src 'self'/);
    await expect(page.title()).resolves.toBe('Lomo inspector');

    // A person's token (of the very workspace of the task): the refusal, and no task.
    await useToken(page, world.tokens.person.token);
    await search(page, 'lighthouse');
    const refusal = page.locator('#error.refusal');
    await refusal.waitFor({ timeout: 20_000 });
    expect(await refusal.innerText()).toContain('FORBIDDEN');
    expect(await page.locator('#task-list li').count()).toBe(0);

    // The operator's token: kept for the tab only.
    await useToken(page, world.tokens.operator.token);
    expect(await page.evaluate('window.sessionStorage.getItem("lomo:operatorToken")')).toBe(
      world.tokens.operator.token,
    );
    expect(await page.evaluate('window.localStorage.getItem("lomo:operatorToken")')).toBeNull();
    await search(page, 'lighthouse keeper');
    const taskLink = page.locator(`.task-link[data-task-id="${world.work.taskId}"]`);
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
    expect(timeline).toContain(`turn-${world.work.turnId}`);
    expect(await page.locator('#timeline-rows tr[data-kind="step"]').count()).toBeGreaterThan(0);

    // A step: its prompt by layer, as the API gives it, with the system rules and the brief in it.
    const expected = await world.api.gql<{
      operatorTurnInspection: { steps: Array<{ prompt: { layers: Array<{ layer: string }> } }> };
    }>(world.tokens.operator.token, TURN_LAYERS, { id: world.work.turnId });
    const layerNames = expected.data!.operatorTurnInspection.steps[0].prompt.layers.map((l) => l.layer);
    expect(layerNames.length).toBeGreaterThan(1);
    await page.locator(`.step-link[data-turn-id="${world.work.turnId}"][data-step="1"]`).click();
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
    const sent = await world.api.gql<unknown>(world.tokens.person.token, SEND_MESSAGE, {
      text: 'Also add: fresh bread for the fog horn crew.',
      taskId: world.work.taskId,
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
