import { SubscriptionSlots } from './subscription-slots';

describe('SubscriptionSlots', () => {
  it('caps subscriptions per token across connections and frees a slot once, however often it is released', () => {
    const slots = new SubscriptionSlots(2);
    expect(slots.acquire('t1', 'c1/1')).toBe(true);
    expect(slots.acquire('t1', 'c2/1')).toBe(true);
    expect(slots.acquire('t1', 'c2/2')).toBe(false);
    expect(slots.acquire('t2', 'c3/1')).toBe(true);
    slots.release('t1', 'c1/1');
    slots.release('t1', 'c1/1');
    expect(slots.count('t1')).toBe(1);
    expect(slots.acquire('t1', 'c2/2')).toBe(true);
    expect(slots.acquire('t1', 'c2/3')).toBe(false);
  });
});
