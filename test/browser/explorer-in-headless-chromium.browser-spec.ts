import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { chromium, type BrowserContext, type Page } from 'playwright-core';
import { startStandaloneApi, type RunningApi } from '../integration/api/support/standalone-api';

import { CHROMIUM_ARGS, chromiumPath } from './chromium';

const CHROMIUM = chromiumPath();
const SCREENSHOT = path.join(tmpdir(), 'lomo-explorer.png');

async function responseText(page: Page, contains: string): Promise<string> {
  const response = page.locator('.graphiql-response');
  await response.getByText(contains).first().waitFor({ timeout: 20_000 });
  return response.innerText();
}

describe('API explorer in headless Chromium', () => {
  let api: RunningApi;
  let profile: string;
  let context: BrowserContext;

  beforeAll(async () => {
    api = await startStandaloneApi();
    profile = mkdtempSync(path.join(tmpdir(), 'lomo-chromium-'));
    context = await chromium.launchPersistentContext(profile, {
      executablePath: CHROMIUM,
      args: CHROMIUM_ARGS,
      headless: true,
      viewport: { width: 1280, height: 800 },
    });
  }, 90_000);

  afterAll(async () => {
    await context?.close();
    if (profile) rmSync(profile, { recursive: true, force: true });
    await api?.stop();
  });

  it('serves GraphiQL from its own origin only, takes the dev token, and runs a query and a subscription with it', async () => {
    const page = await context.newPage();
    const foreignRequests: string[] = [];
    const problems: string[] = [];
    page.on('request', (request) => {
      if (!request.url().startsWith(api.url) && !request.url().startsWith(api.url.replace(/^http/, 'ws'))) {
        foreignRequests.push(request.url());
      }
    });
    page.on('console', (message) => {
      if (message.type() === 'error') problems.push(message.text());
    });
    page.on('pageerror', (error) => problems.push(error.message));

    const query = encodeURIComponent('{ me { workspaceId userId } }');
    const loaded = await page.goto(`${api.url}/?query=${query}`);
    expect(loaded?.status()).toBe(200);
    expect(loaded?.headers()['content-security-policy']).toMatch(/^default-src 'self'; script-src 'self'/);
    await page.locator('.graphiql-container').waitFor({ timeout: 20_000 });

    await page.fill('#token', api.devToken);
    await page.click('#token-form button[type=submit]');
    await page.locator('.graphiql-execute-button').click();
    const answer = await responseText(page, '"workspaceId": "dev"');
    expect(answer).toContain('"userId": "dev"');
    expect(answer).not.toContain('"errors"');
    expect(await page.evaluate('window.localStorage.getItem("lomo:apiToken")')).toBe(api.devToken);
    await page.screenshot({ path: SCREENSHOT });

    // The token survives a reload, and subscriptions go over the page's own WebSocket.
    const subscription = encodeURIComponent('subscription { mainlineUpdated(first: 1) { snapshot } }');
    await page.goto(`${api.url}/?query=${subscription}`);
    await page.locator('.graphiql-execute-button').click();
    expect(await responseText(page, '"snapshot": true')).toContain('"mainlineUpdated"');

    expect(foreignRequests).toEqual([]);
    expect(problems).toEqual([]);
    await page.close();
  }, 90_000);
});
