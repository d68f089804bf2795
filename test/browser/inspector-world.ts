import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { chromium, type BrowserContext, type Page } from 'playwright-core';
import { sendAndSettle } from '../integration/api/support/queries';
import { startStandaloneApi, type RunningApi } from '../integration/api/support/standalone-api';
import { CHROMIUM_ARGS, chromiumPath } from './chromium';

export interface IssuedToken {
  id: string;
  token: string;
}

/**
 * What the inspector's browser tests stand on: `npm start`'s standalone app, a person's token in
 * one workspace and an operator's, the person's brief worked through (its task and turn), and a
 * headless Chromium on a throwaway profile.
 */
export interface InspectorWorld {
  api: RunningApi;
  context: BrowserContext;
  tokens: { person: IssuedToken; operator: IssuedToken };
  work: { taskId: string; turnId: string };
  close(): Promise<void>;
}

export async function openInspectorWorld(brief: string): Promise<InspectorWorld> {
  const api = await startStandaloneApi();
  const createToken = async (workspace: string, user: string, kind: string): Promise<IssuedToken> => {
    const args = ['create', '--workspace', workspace, '--user', user, '--name', user, '--kind', kind];
    const result = await api.tokens(args);
    if (result.code !== 0) throw new Error(`lomo tokens create failed: ${result.stderr}`);
    return JSON.parse(result.stdout.trim()) as IssuedToken;
  };
  const [person, operator] = await Promise.all([
    createToken('ws_a', 'alice', 'person'),
    createToken('ops', 'sam', 'operator'),
  ]);
  const work = await sendAndSettle(api, person.token, brief);
  const profile = mkdtempSync(path.join(tmpdir(), 'lomo-chromium-'));
  const context = await chromium.launchPersistentContext(profile, {
    executablePath: chromiumPath(),
    args: CHROMIUM_ARGS,
    headless: true,
    viewport: { width: 1280, height: 900 },
  });
  return {
    api,
    context,
    tokens: { person, operator },
    work,
    close: async () => {
      await context.close();
      rmSync(profile, { recursive: true, force: true });
      await api.stop();
    },
  };
}

/**
 * Keeps the page on the API's origin: any other request is aborted and recorded in `foreign`, a
 * WebSocket elsewhere too; console errors and page errors land in `problems`. Both must end empty.
 */
export async function guardPage(page: Page, apiUrl: string): Promise<{ foreign: string[]; problems: string[] }> {
  const foreign: string[] = [];
  const problems: string[] = [];
  const wsOrigin = apiUrl.replace(/^http/, 'ws');
  await page.route('**/*', (route) => {
    if (route.request().url().startsWith(apiUrl)) return route.continue();
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
  return { foreign, problems };
}

export async function useToken(page: Page, token: string): Promise<void> {
  await page.fill('#token', token);
  await page.click('#token-form button[type=submit]');
}
