import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { chromium, type BrowserContext, type Page } from 'playwright-core';
import { sendAndSettle } from '../integration/api/support/queries';
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
const SCREENSHOT = path.join(tmpdir(), 'lomo-inspector-replay.png');
// A note: step 1 calls notes.create, step 2 answers with a summary.
const BRIEF = 'Please take a note: buy oat milk for the lighthouse keeper';
const RULE = 'Answer in one word.';
const PATCH = JSON.stringify({
  patches: [
    {
      layer: 'prefix',
      find: 'You are Lomo, an agent working on one task for one person over many steps.',
      replace: `You are Lomo, an agent working on one task for one person over many steps. ${RULE}`,
    },
  ],
});

const RECORDED = `query($id: ID!) {
  replayTurn(turnId: $id) {
    steps { step reply { recorded { text } } toolCalls { tool recordedArguments { text } } }
  }
}`;
interface Recorded {
  replayTurn: {
    steps: Array<{
      step: number;
      reply: { recorded: { text: string | null } };
      toolCalls: Array<{ tool: string; recordedArguments: { text: string | null } | null }>;
    }>;
  };
}

async function useToken(page: Page, token: string): Promise<void> {
  await page.fill('#token', token);
  await page.click('#token-form button[type=submit]');
}

describe('operator inspector: a turn replayed in headless Chromium', () => {
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

  it("replays a step's turn with the recorded replies (every step reproduced, its calls reused), then with a patch and a script: the divergence highlighted at step 2; a malformed patch is refused with its code", async () => {
    const page = await context.newPage();
    const foreign: string[] = [];
    const problems: string[] = [];
    const wsOrigin = api.url.replace(/^http/, 'ws');
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

    // The operator opens the task and its first step.
    await page.goto(`${api.url}/inspector`);
    await useToken(page, tokens.operator.token);
    await page.fill('#search', work.taskId);
    await page.click('#search-form button[type=submit]');
    await page.locator(`.task-link[data-task-id="${work.taskId}"]`).click();
    const stepLink = page.locator(`.step-link[data-turn-id="${work.turnId}"][data-step="1"]`);
    await stepLink.waitFor({ timeout: 20_000 });
    await stepLink.click();
    await page.locator('#prompt-layers .layer').first().waitFor({ timeout: 20_000 });

    // Replay with the recorded replies: one section per step, all reproduced, none diverged.
    expect(await page.locator('#replay-model').inputValue()).toBe('RECORDED');
    await page.click('#replay-run');
    const sections = page.locator('#replay-result .replay-step');
    await sections.first().waitFor({ timeout: 30_000 });
    const count = await sections.count();
    expect(count).toBeGreaterThanOrEqual(2);
    expect(await page.locator('#replay-result .replay-summary').innerText()).toContain('no divergence');
    expect(await sections.evaluateAll((nodes) => nodes.map((n) => n.getAttribute('data-status')))).toEqual(
      Array.from({ length: count }, () => 'replayed'),
    );
    expect(await page.locator('#replay-result .replay-step.diverged').count()).toBe(0);
    expect(await page.locator('#replay-result .context').allInnerTexts()).toEqual(
      Array.from({ length: count }, () => 'context reproduced'),
    );
    expect(await page.locator('#replay-result .replay-step.selected').getAttribute('data-step')).toBe('1');
    const firstCall = sections.first().locator('tr[data-call-status]');
    expect(await firstCall.first().innerText()).toMatch(/notes\.create\s+reused/);
    expect(await page.locator('#replay-state').innerText()).toContain('nothing was run or written');

    // A patch and a script that answers differently at step 2 when it reads the patched rule.
    const recorded = (await api.gql<Recorded>(tokens.operator.token, RECORDED, { id: work.turnId })).data!.replayTurn;
    const replyOf = (step: Recorded['replayTurn']['steps'][number]) => ({
      text: step.reply.recorded.text ?? '',
      toolCalls: step.toolCalls.map((c) => ({
        name: c.tool,
        arguments: JSON.parse(c.recordedArguments!.text!) as Record<string, unknown>,
      })),
    });
    const script = JSON.stringify({
      steps: recorded.steps.map((s) =>
        s.step === 2
          ? { when: { promptContains: RULE }, reply: { text: 'Noted.' }, otherwise: replyOf(s) }
          : { reply: replyOf(s) },
      ),
    });
    await page.selectOption('#replay-model', 'SCRIPTED');
    await page.fill('#replay-patch', PATCH);
    await page.fill('#replay-script', script);
    await page.click('#replay-run');
    const diverged = page.locator('#replay-result .replay-step.diverged');
    await diverged.waitFor({ timeout: 30_000 });
    expect(await diverged.getAttribute('data-step')).toBe('2');
    expect(await page.locator('#replay-result .replay-summary').innerText()).toContain('diverged at step 2');
    expect(await diverged.locator('h4').innerText()).toContain('DIVERGED');
    expect(await diverged.locator('pre.replayed').innerText()).toBe('Noted.');
    expect(await diverged.locator('pre.recorded').innerText()).toBe(recorded.steps[1].reply.recorded.text);
    expect(await diverged.innerText()).toContain('Patched: layer prefix');
    await page.screenshot({ path: SCREENSHOT, fullPage: true });

    // A malformed patch: the refusal with its code, and no diff.
    await page.fill('#replay-patch', '{"patches": [');
    await page.click('#replay-run');
    const error = page.locator('#error');
    await page.locator('#error', { hasText: 'BAD_PROMPT_PATCH' }).waitFor({ timeout: 20_000 });
    expect(await error.innerText()).toContain('prompt patch refused');
    expect(await page.locator('#replay-result .replay-step').count()).toBe(0);

    expect(foreign).toEqual([]);
    expect(problems).toEqual([]);
    await page.close();
  }, 120_000);
});
