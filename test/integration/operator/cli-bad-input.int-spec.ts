import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { sendAndSettle } from '../api/support/queries';
import { startStandaloneApi, type RunningApi } from '../api/support/standalone-api';
import { runLomo, snapshotDirectory, type LomoRun } from './support/run-lomo';

// The "bad input" must-show: unknown stream, bad position, another workspace without the
// operator role, malformed flags, writes without their flag: each a clear message and exit code 2,
// and the data directory byte-for-byte unchanged afterwards (every file's size and SHA-256).

describe('lomo refuses bad input with exit code 2 and changes nothing', () => {
  let api: RunningApi;
  let dataDir: string;
  let taskId: string;
  let ownWorkspace: string;
  let outsider: string;
  let operator: string;
  const env = () => ({ LOMO_DATA_DIR: dataDir, LOMO_MODE: 'embedded' });

  beforeAll(async () => {
    api = await startStandaloneApi({}, { keepDataDir: true });
    dataDir = api.dataDir;
    ({ taskId } = await sendAndSettle(api, api.devToken, 'Please draft a tagline for the spring tea launch'));
    const me = await api.gql<{ me: { workspaceId: string } }>(api.devToken, '{ me { workspaceId } }');
    ownWorkspace = me.data!.me.workspaceId;
    const token = async (args: string[]) =>
      (JSON.parse((await api.tokens(args)).stdout.trim()) as { token: string }).token;
    outsider = await token(['create', '--workspace', 'elsewhere', '--user', 'eve']);
    operator = await token(['create', '--workspace', 'ops', '--user', 'sam', '--kind', 'operator']);
    // Stopped: what the CLI finds is what it must leave.
    await api.stop();
  }, 120_000);
  afterAll(() => {
    if (dataDir !== undefined) rmSync(dataDir, { recursive: true, force: true });
  });

  const refused = async (args: string[], message: RegExp): Promise<LomoRun> => {
    const before = snapshotDirectory(dataDir);
    const run = await runLomo(args, env());
    expect({ args, code: run.code }).toEqual({ args, code: 2 });
    expect(run.stderr).toMatch(message);
    expect(snapshotDirectory(dataDir)).toEqual(before);
    return run;
  };

  it('an unknown stream, an unknown task, a revision beyond the head, a malformed --at', async () => {
    await refused(
      ['--token', operator, 'stream', 'show', 'task-00000000-0000-4000-8000-000000000000'],
      /does not exist \(UNKNOWN_STREAM\)/,
    );
    await refused(['--token', operator, 'stream', 'show', 'nonsense'], /UNKNOWN_STREAM|BAD_INPUT/);
    await refused(['--token', operator, 'task', 'inspect', '00000000-0000-4000-8000-000000000000'], /NOT_FOUND/);
    await refused(['--token', operator, 'stream', 'show', `task-${taskId}`, '--at', '100000'], /BAD_POSITION/);
    await refused(['--token', operator, 'stream', 'show', `task-${taskId}`, '--at', 'yesterday'], /BAD_POSITION/);
    await refused(
      ['--token', operator, 'stream', 'show', `task-${taskId}`, '--at', '-3'],
      /BAD_POSITION|unknown option/,
    );
  }, 60_000);

  it("another workspace without the operator role: a person's token reads only its own", async () => {
    await refused(['--token', outsider, 'task', 'inspect', taskId], /needs an operator token \(FORBIDDEN\)/);
    await refused(['--token', outsider, 'stream', 'show', `task-${taskId}`], /FORBIDDEN/);
    await refused(['--token', outsider, 'events', 'tail', '--workspace', ownWorkspace], /FORBIDDEN/);
  }, 60_000);

  it('malformed flags, a missing argument, no token, a token that is not one', async () => {
    await refused(['--token', operator, 'task', 'inspect'], /missing required argument/);
    await refused(['--token', operator, 'events', 'tail', '--limit', 'many'], /--limit must be a whole number/);
    await refused(['--token', operator, 'events', 'tail', '--bogus'], /unknown option '--bogus'/);
    await refused(['frobnicate'], /unknown command 'frobnicate'/);
    await refused(['task', 'inspect', taskId], /give --token/);
    await refused(['--token', 'lomo_not-a-token', 'task', 'inspect', taskId], /token was refused/);
  }, 60_000);

  it('writes without --confirm, or without the operator role, and a corrupt import', async () => {
    await refused(['--token', operator, 'projections', 'rebuild'], /--confirm \(CONFIRMATION_REQUIRED\)/);
    await refused(['--token', operator, 'dlq', 'redrive', '--source', 'memory'], /CONFIRMATION_REQUIRED/);
    await refused(['--token', operator, 'import', dataDir], /CONFIRMATION_REQUIRED/);
    const person = api.devToken;
    await refused(['--token', person, 'projections', 'rebuild', '--confirm'], /needs an operator token/);
    await refused(['--token', person, 'dlq', 'redrive', '--source', 'memory', '--confirm'], /needs an operator token/);
    // Not an export at all: the data directory itself.
    await refused(['--token', operator, 'import', dataDir, '--confirm'], /IMPORT_REFUSED/);
  }, 60_000);

  it("turn replay: an unknown turn, a step beyond the turn, a malformed patch or script, an unknown model, a person's token", async () => {
    const inspected = await runLomo(['--json', '--token', operator, 'task', 'inspect', taskId], env());
    const { steps } = JSON.parse(inspected.stdout.trim()) as { steps: Array<{ turnId: string; step: number }> };
    const turnId = steps[0].turnId;
    const committed = steps.filter((s) => s.turnId === turnId).length;
    const files = mkdtempSync(join(tmpdir(), 'replay-input-'));
    try {
      const notJson = join(files, 'not-json.json');
      writeFileSync(notJson, '{ "patches": [');
      const wrongShape = join(files, 'wrong-shape.json');
      writeFileSync(wrongShape, JSON.stringify({ patches: [{ layer: 'nowhere', find: 'a', replace: 'b' }] }));
      const badScript = join(files, 'script.json');
      writeFileSync(badScript, JSON.stringify({ steps: [{ reply: { text: 1 } }] }));
      const replay = (...args: string[]) => ['--token', operator, 'turn', 'replay', ...args];

      await refused(
        replay('00000000-0000-4000-8000-000000000000'),
        /turn "00000000-0000-4000-8000-000000000000" does not exist \(NOT_FOUND\)/,
      );
      await refused(
        replay(turnId, '--step', String(committed + 1)),
        /there is no step \d+ to replay \(STEP_BEYOND_TURN\)/,
      );
      await refused(replay(turnId, '--step', '0'), /--step counts from 1/);
      await refused(replay(turnId, '--prompt-patch', notJson), /prompt patch refused: not JSON.*\(BAD_PROMPT_PATCH\)/);
      await refused(replay(turnId, '--prompt-patch', wrongShape), /patches\.0.*\(BAD_PROMPT_PATCH\)/);
      await refused(
        replay(turnId, '--prompt-patch', join(files, 'missing.json')),
        /--prompt-patch .*missing\.json.*\(BAD_INPUT\)/,
      );
      await refused(
        replay(turnId, '--model', 'scripted', '--script', badScript),
        /replay script refused.*\(BAD_REPLAY_SCRIPT\)/,
      );
      await refused(replay(turnId, '--model', 'scripted'), /scripted needs a script.*\(BAD_REPLAY_MODEL\)/);
      await refused(replay(turnId, '--model', 'gpt-wishful'), /"gpt-wishful" is none of.*\(BAD_REPLAY_MODEL\)/);
      await refused(replay(turnId, '--model', 'openai'), /openai needs OPENAI_BASE_URL.*\(BAD_REPLAY_MODEL\)/);
      // A person's token, even for its own workspace's turn: a replay is an operator's tool.
      await refused(['--token', api.devToken, 'turn', 'replay', turnId], /operator token/);
    } finally {
      rmSync(files, { recursive: true, force: true });
    }
  }, 60_000);

  it('the same reads succeed with the operator token, and change nothing either', async () => {
    const before = snapshotDirectory(dataDir);
    const run = await runLomo(['--json', '--token', operator, 'task', 'inspect', taskId], env());
    expect(run.code).toBe(0);
    expect(JSON.parse(run.stdout.trim())).toMatchObject({ taskId, workspaceId: ownWorkspace });
    expect(snapshotDirectory(dataDir)).toEqual(before);
  }, 60_000);
});
