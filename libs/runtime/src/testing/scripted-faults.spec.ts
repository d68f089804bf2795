import { ScriptedFaults } from './scripted-faults';
import { noFaults } from '../faults/fault-injector';

const at = { workerId: 'w', taskId: 't' };

describe('fault injection points', () => {
  it('production injects nothing and costs no promise', () => {
    expect(noFaults.at({ point: 'after-tool-started', ...at })).toBeUndefined();
  });

  it('holds the first matching visit until released, and lets later visits pass', async () => {
    const faults = new ScriptedFaults();
    const hang = faults.hang('after-tool-started', (c) => c.callId === 'x');
    expect(faults.at({ point: 'after-tool-started', ...at, callId: 'y' })).toBeUndefined();
    const held = faults.at({ point: 'after-tool-started', ...at, callId: 'x' });
    expect(held).toBeInstanceOf(Promise);
    await expect(hang.reached).resolves.toMatchObject({ callId: 'x' });
    hang.release();
    await expect(held).resolves.toBeUndefined();
    expect(faults.at({ point: 'after-tool-started', ...at, callId: 'x' })).toBeUndefined();
    expect(faults.visitsOf('after-tool-started')).toHaveLength(3);
  });

  it('can fail a held worker, as a crash at that point would', async () => {
    const faults = new ScriptedFaults();
    const hang = faults.hang('between-read-and-append');
    const held = faults.at({ point: 'between-read-and-append', ...at });
    hang.fail(new Error('gone'));
    await expect(held).rejects.toThrow('gone');
  });
});
