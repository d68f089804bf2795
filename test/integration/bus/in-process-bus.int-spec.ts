import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { InProcessEventBus } from '@lomo/bus';
import { describeEventBusContract } from '@lomo/bus/testing';

// The durable variant: every "another" bus is its own connection to the same WAL file, as a
// restarted process or a second one would have.
describeEventBusContract('in-process, SQLite file', async () => {
  const dir = mkdtempSync(path.join(tmpdir(), 'lomo-bus-'));
  const filename = path.join(dir, 'bus.sqlite');
  const buses: InProcessEventBus[] = [];
  const open = () => {
    const bus = InProcessEventBus.open({
      filename,
      synchronous: 'NORMAL',
      pollIntervalMs: 50,
      heartbeatIntervalMs: 200,
    });
    buses.push(bus);
    return bus;
  };
  let names = 0;
  return {
    bus: open(),
    openAnother: async () => open(),
    uniqueName: (base) => `${base}-${(names += 1)}`,
    dispose: async () => {
      for (const bus of buses) await bus.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
});
