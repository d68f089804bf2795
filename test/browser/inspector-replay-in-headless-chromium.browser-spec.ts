import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { guardPage, openInspectorWorld, useToken, type InspectorWorld } from './inspector-world';

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

describe('operator inspector: a turn replayed in headless Chromium', () => {
  let world: InspectorWorld;
  beforeAll(async () => {
    world = await openInspectorWorld(BRIEF);
  }, 120_000);
  afterAll(async () => world?.close());

  it("replays a step's turn with the recorded replies (every step reproduced, its calls reused), then with a patch and a script: the divergence highlighted at step 2; a malformed patch is refused with its code", async () => {
    const page = await world.context.newPage();
    const { foreign, problems } = await guardPage(page, world.api.url);

    // The operator opens the task and its first step.
    await page.goto(`${world.api.url}/inspector`);
    await useToken(page, world.tokens.operator.token);
    await page.fill('#search', world.work.taskId);
    await page.click('#search-form button[type=submit]');
    await page.locator(`.task-link[data-task-id="${world.work.taskId}"]`).click();
    const stepLink = page.locator(`.step-link[data-turn-id="${world.work.turnId}"][data-step="1"]`);
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
    const recorded = (await world.api.gql<Recorded>(world.tokens.operator.token, RECORDED, { id: world.work.turnId }))
      .data!.replayTurn;
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
