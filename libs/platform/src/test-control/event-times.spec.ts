import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { loadConfig } from '@lomo/config';
import { newTaskStreamId, sampleEventsFor } from '@lomo/eventstore/testing';
import { openEventStore } from '../open-stores';
import { createTestControl } from './create-test-control';

// The watchdog and the active-work index compare CLOCK with the events' occurredAt: with test
// control on, the SQLite store must stamp events with the simulated clock, or a clock started in
// the past would never find a queued turn "too long" (and lost wake-ups would never be recovered).
describe('events are recorded at the simulated time', () => {
  const dir = mkdtempSync(path.join(tmpdir(), 'lomo-test-control-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('occurredAt follows the simulated clock, advances included', async () => {
    const config = loadConfig({
      LOMO_DATA_DIR: dir,
      LOMO_TEST_CONTROL: 'on',
      LOMO_TEST_CLOCK_START: '2026-01-05T09:00:00.000Z',
    });
    const { clock, state } = createTestControl(config);
    const store = await openEventStore(config, clock);
    const stream = newTaskStreamId();
    const [first, second] = sampleEventsFor(stream, 2);
    const append = (n: number) => store.append(stream, [n === 0 ? first : second], n === 0 ? 'no_stream' : 0);
    await append(0);
    state!.clock.advance(3 * 86_400_000);
    await append(1);
    const times = (await store.readStream(stream)).map((e) => Date.parse(e.metadata.occurredAt));
    expect(times[0] - Date.parse('2026-01-05T09:00:00.000Z')).toBeLessThan(60_000);
    expect(times[1] - times[0]).toBeGreaterThanOrEqual(3 * 86_400_000);
    await store.close();
  });
});
