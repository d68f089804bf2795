import { MEMORY_GROUP, PROJECTOR_GROUP, ROUTER_GROUP } from '@lomo/application';
import { GENERATION_CONSUMER_GROUP } from '@lomo/generation';
import { EXECUTOR_WAKE_GROUP } from '@lomo/runtime';
import { KNOWN_CONSUMER_GROUPS, MEMORY_CONSUMER_GROUP } from './consumer-groups';

describe('the consumer groups the operator tools know', () => {
  it('are the groups the apps subscribe with', () => {
    expect([...KNOWN_CONSUMER_GROUPS].sort()).toEqual(
      [ROUTER_GROUP, PROJECTOR_GROUP, MEMORY_GROUP, GENERATION_CONSUMER_GROUP, EXECUTOR_WAKE_GROUP].sort(),
    );
    expect(MEMORY_CONSUMER_GROUP).toBe(MEMORY_GROUP);
  });
});
