import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { parseSimulatedUpstreamSettings } from './upstream-config';
import { emptySimulatedCounters, JsonFileSimulatedStateStore } from './upstream-state';

describe('parseSimulatedUpstreamSettings', () => {
  it('reads env, lets arguments win, and merges SIM_UPSTREAM_CONFIG over single variables', () => {
    const s = parseSimulatedUpstreamSettings(
      {
        SIM_UPSTREAM_PORT: '5000',
        SIM_UPSTREAM_LATENCY_MS: '250',
        SIM_UPSTREAM_PROGRESS_TICKS: '2',
        SIM_UPSTREAM_CALLBACK_SECRET: 's',
        SIM_UPSTREAM_CONFIG: JSON.stringify({ config: { progressTicks: 7 }, faults: { lostCallbacks: true } }),
        LOMO_DATA_DIR: '/data',
      },
      ['--port=0'],
    );
    expect(s).toMatchObject({ port: 0, host: '127.0.0.1', stateFile: '/data/sim-upstream/state.json', seed: 1 });
    expect(s.start).toEqual({
      config: { latencyMs: 250, progressTicks: 7, callbackSecret: 's' },
      faults: { lostCallbacks: true },
    });
  });

  it('fails fast on bad input', () => {
    expect(() => parseSimulatedUpstreamSettings({ SIM_UPSTREAM_PORT: 'x' })).toThrow(/port/);
    expect(() => parseSimulatedUpstreamSettings({ SIM_UPSTREAM_CONFIG: '{' })).toThrow(/JSON/);
    expect(() => parseSimulatedUpstreamSettings({ SIM_UPSTREAM_CONFIG: '{"faults":{"nope":1}}' })).toThrow(/invalid/);
    expect(() => parseSimulatedUpstreamSettings({}, ['--what'])).toThrow(/argument/);
  });
});

describe('JsonFileSimulatedStateStore', () => {
  it('round-trips the state through temp file + rename, leaving no temp file behind', () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'sim-state-'));
    try {
      const store = new JsonFileSimulatedStateStore(path.join(dir, 'nested', 'state.json'));
      expect(store.load()).toBeUndefined();
      const state = { version: 1 as const, jobs: [], counters: { ...emptySimulatedCounters(), submitRequests: 3 } };
      store.save(state);
      store.save({ ...state, counters: { ...state.counters, submitRequests: 4 } });
      expect(
        new JsonFileSimulatedStateStore(path.join(dir, 'nested', 'state.json')).load()?.counters.submitRequests,
      ).toBe(4);
      expect(readdirSync(path.join(dir, 'nested'))).toEqual(['state.json']);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
