import { existingTask, fold, taskDecider, type TaskEvent } from '@lomo/domain';
import { created, TURN } from '../process/plan-turn.fixtures';
import { unneededLoadedDomains, visibleDomains } from './visible-tools';

// Which tool domains a step may call: core, the checklist stage's, and what the model loaded.

const plan: TaskEvent = {
  type: 'ChecklistPlanned',
  data: {
    items: [
      { itemId: 'script', title: 'Script', dependsOn: [], output: { kind: 'artifact' } },
      { itemId: 'shots', title: 'Shots', dependsOn: ['script'], output: { kind: 'media', media: 'video', count: 3 } },
      { itemId: 'pick', title: 'Pick', dependsOn: ['shots'], output: { kind: 'decision' } },
    ],
  },
};
const done = (itemId: string): TaskEvent => ({ type: 'ChecklistItemChanged', data: { itemId, status: 'done' } });
const loaded = (...domains: Array<'image' | 'asset' | 'video'>): TaskEvent => ({
  type: 'ToolDomainsLoaded',
  data: { domains, turnId: TURN, step: 1 },
});
const task = (...events: TaskEvent[]) => existingTask(fold(taskDecider, [...created, ...events]));

describe('visible tool domains', () => {
  it('core alone without a plan; the stage at hand adds its domain, in the registry’s order', () => {
    expect(visibleDomains(task())).toEqual(['core']);
    expect(visibleDomains(task(plan))).toEqual(['core', 'document']);
    expect(visibleDomains(task(plan, done('script')))).toEqual(['core', 'video']);
    expect(visibleDomains(task(plan, done('script'), done('shots')))).toEqual(['core']);
  });

  it('what the model loaded is added; at a compression boundary the loaded domains the stage does not need go', () => {
    const t = task(plan, done('script'), loaded('asset', 'image', 'video'));
    expect(visibleDomains(t)).toEqual(['core', 'image', 'video', 'asset']);
    expect(unneededLoadedDomains(t, { turnId: TURN, step: 3 })).toEqual(['asset', 'image']);
    // Loaded after what the compression summarizes (step 1 is still shown in full): kept.
    expect(unneededLoadedDomains(t, { turnId: TURN, step: 0 })).toEqual([]);
    const unloaded: TaskEvent = {
      type: 'ToolDomainsUnloaded',
      data: { domains: ['asset', 'image'], reason: 'compression' },
    };
    expect(visibleDomains(task(plan, done('script'), loaded('asset', 'image', 'video'), unloaded))).toEqual([
      'core',
      'video',
    ]);
  });
});
