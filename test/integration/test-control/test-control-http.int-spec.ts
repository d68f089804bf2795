import { startStandaloneApi, type RunningApi } from '../api/support/standalone-api';

/**
 * The drills' test-control surface over real HTTP on the standalone app (`npm start`): mounted
 * only with LOMO_TEST_CONTROL=on, operator tokens only, bad bodies refused with nothing changed,
 * and the simulated clock and the upstream's faults moved as the harness asks.
 */
describe('test control over HTTP (standalone)', () => {
  let api: RunningApi;
  let off: RunningApi;
  let operator: string;
  let person: string;

  const createToken = async (target: RunningApi, kind: 'person' | 'operator') => {
    const args = ['create', '--workspace', 'drills', '--user', kind, '--name', kind, '--kind', kind];
    const result = await target.tokens(args);
    if (result.code !== 0) throw new Error(`lomo tokens create failed: ${result.stderr}`);
    return (JSON.parse(result.stdout.trim()) as { token: string }).token;
  };

  const call = async (target: RunningApi, method: 'GET' | 'POST', path: string, token?: string, body?: unknown) => {
    const response = await fetch(`${target.url}${path}`, {
      method,
      headers: {
        ...(body !== undefined ? { 'content-type': 'application/json' } : {}),
        ...(token !== undefined ? { authorization: `Bearer ${token}` } : {}),
      },
      ...(body !== undefined ? { body: typeof body === 'string' ? body : JSON.stringify(body) } : {}),
    });
    const text = await response.text();
    return {
      status: response.status,
      body: (text.startsWith('{') ? JSON.parse(text) : text) as Record<string, unknown>,
    };
  };

  beforeAll(async () => {
    [api, off] = await Promise.all([
      startStandaloneApi({
        LOMO_TEST_CONTROL: 'on',
        LOMO_TEST_CLOCK_START: '2026-01-05T09:00:00.000Z',
        LOMO_TEST_FAULTS: 'duplicate_callbacks',
        LOMO_TEST_MUTATIONS: 'no_change_notice,no_budget_check',
      }),
      startStandaloneApi(),
    ]);
    [operator, person] = await Promise.all([createToken(api, 'operator'), createToken(api, 'person')]);
  }, 120_000);

  afterAll(async () => {
    await Promise.all([api?.stop(), off?.stop()]);
  });

  it('is not there when test control is off: 404, even for an operator', async () => {
    const token = await createToken(off, 'operator');
    expect((await call(off, 'GET', '/test-control', token)).status).toBe(404);
    expect((await call(off, 'POST', '/test-control/clock', token, { advanceMs: 1 })).status).toBe(404);
  });

  it('needs a bearer token (401) of an operator (403)', async () => {
    const missing = await call(api, 'GET', '/test-control');
    expect(missing).toMatchObject({ status: 401, body: { error: { code: 'UNAUTHENTICATED' } } });
    const forged = await call(api, 'POST', '/test-control/clock', 'lomo_notatoken', { advanceMs: 1 });
    expect(forged.status).toBe(401);
    const asPerson = await call(api, 'POST', '/test-control/clock', person, { advanceMs: 86_400_000 });
    expect(asPerson).toMatchObject({ status: 403, body: { error: { code: 'FORBIDDEN' } } });
  });

  it('shows the clock, the faults set at start and the mutations', async () => {
    const state = await call(api, 'GET', '/test-control', operator);
    expect(state.status).toBe(200);
    expect(state.body).toMatchObject({
      faults: { duplicateCallbacks: true, lostCallbacks: false, lostWakeups: false },
      mutations: ['no_budget_check', 'no_change_notice'],
    });
    // Started on 5 January and running with real time since.
    expect(Date.parse(state.body.now as string) - Date.parse('2026-01-05T09:00:00.000Z')).toBeLessThan(120_000);
  });

  it('advances and sets the clock, never backwards, and refuses bad bodies with nothing changed', async () => {
    const before = (await call(api, 'GET', '/test-control', operator)).body;
    const advanced = await call(api, 'POST', '/test-control/clock', operator, { advanceMs: 3 * 86_400_000 });
    expect(advanced.status).toBe(200);
    const gained = Date.parse(advanced.body.now as string) - Date.parse(before.now as string);
    expect(gained).toBeGreaterThanOrEqual(3 * 86_400_000);
    expect(gained).toBeLessThan(3 * 86_400_000 + 60_000);

    const set = await call(api, 'POST', '/test-control/clock', operator, { setTo: '2026-02-01T08:00:00.000Z' });
    expect(set).toMatchObject({ status: 200, body: { now: '2026-02-01T08:00:00.000Z' } });

    const back = await call(api, 'POST', '/test-control/clock', operator, { setTo: '2026-01-01T00:00:00Z' });
    expect(back).toMatchObject({ status: 400, body: { error: { code: 'CLOCK_BACKWARDS' } } });
    for (const bad of [{ advanceMs: -5 }, { advanceMs: 1, setTo: '2026-03-01T00:00:00Z' }, { setTo: 'soon' }, {}, '[]'])
      expect(await call(api, 'POST', '/test-control/clock', operator, bad)).toMatchObject({
        status: 400,
        body: { error: { code: 'BAD_REQUEST' } },
      });
    const after = (await call(api, 'GET', '/test-control', operator)).body;
    expect(Date.parse(after.now as string) - Date.parse('2026-02-01T08:00:00.000Z')).toBeLessThan(60_000);
  });

  it('switches faults at run time and forwards the callback faults to the simulated upstream', async () => {
    const bad = await call(api, 'POST', '/test-control/faults', operator, { lostWakeups: 'yes' });
    expect(bad).toMatchObject({ status: 400, body: { error: { code: 'BAD_REQUEST' } } });
    const unknown = await call(api, 'POST', '/test-control/faults', operator, { slowDisk: true });
    expect(unknown.status).toBe(400);

    const switched = await call(api, 'POST', '/test-control/faults', operator, {
      duplicateCallbacks: false,
      lostCallbacks: true,
      lostWakeups: true,
    });
    expect(switched).toMatchObject({
      status: 200,
      body: { faults: { duplicateCallbacks: false, lostCallbacks: true, lostWakeups: true } },
    });
    // The upstream (apps/sim-upstream, a child process) logged its URL; its own /control shows the faults.
    const upstream = api.lines.find((l) => l.msg === 'simulated media upstream started')?.simUpstream as string;
    const control = (await (await fetch(`${upstream}/control`)).json()) as { faults: Record<string, unknown> };
    expect(control.faults).toMatchObject({ duplicateCallbacks: false, lostCallbacks: true });
  });

  it('arms and disarms the crash fault at run time, and the other faults keep their value', async () => {
    // Disarmed again before any media order here: armed, the next one would SIGKILL this app.
    const armed = await call(api, 'POST', '/test-control/faults', operator, { crashAfterMediaOrder: true });
    expect(armed).toMatchObject({ status: 200, body: { faults: { crashAfterMediaOrder: true, lostWakeups: true } } });
    const disarmed = await call(api, 'POST', '/test-control/faults', operator, { crashAfterMediaOrder: false });
    expect(disarmed).toMatchObject({ status: 200, body: { faults: { crashAfterMediaOrder: false } } });
    expect((await call(api, 'GET', '/test-control', operator)).body).toMatchObject({
      faults: { crashAfterMediaOrder: false, lostCallbacks: true },
    });
    expect(await call(api, 'POST', '/test-control/faults', operator, { crashAfterMediaOrder: 1 })).toMatchObject({
      status: 400,
      body: { error: { code: 'BAD_REQUEST' } },
    });
  });
});
