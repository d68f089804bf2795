import { describeEventBusContract } from '../testing/event-bus.contract';
import { InProcessEventBus } from './in-process-event-bus';
import { SqliteBusLog } from './sqlite-bus-log';

// ':memory:' lives as long as its connection, so a "restart" is a new bus over the same log object.
describeEventBusContract('in-process, :memory: log', async () => {
  const log = SqliteBusLog.open({ filename: ':memory:' });
  const buses: InProcessEventBus[] = [];
  const open = () => {
    const bus = new InProcessEventBus(log, { pollIntervalMs: 50, heartbeatIntervalMs: 200 }, false);
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
      log.close();
    },
  };
});
