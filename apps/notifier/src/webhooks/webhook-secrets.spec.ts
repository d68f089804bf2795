import { activeSecrets, MAX_ACTIVE_SECRETS, rotate } from './webhook-secrets';

const now = new Date('2026-11-30T12:00:00.000Z');
const entry = (id: string, expiresAt: string | null = null) => ({
  id,
  secret: `s-${id}`,
  createdAt: now.toISOString(),
  expiresAt,
});

describe('secret rotation', () => {
  it('keeps the previous secrets until the grace period ends, never extending an earlier expiry', () => {
    const rotated = rotate([entry('a', '2026-11-30T12:10:00.000Z'), entry('b')], entry('c'), 3_600, now);
    expect(rotated.map((e) => [e.id, e.expiresAt])).toEqual([
      ['a', '2026-11-30T12:10:00.000Z'],
      ['b', '2026-11-30T13:00:00.000Z'],
      ['c', null],
    ]);
    expect(activeSecrets(rotated, new Date('2026-11-30T12:30:00.000Z'))).toEqual(['s-b', 's-c']);
  });

  it('drops previous secrets at once with no grace, and bounds how many stay active', () => {
    expect(rotate([entry('a')], entry('b'), 0, now).map((e) => e.id)).toEqual(['b']);
    let entries = [entry('0')];
    for (let i = 1; i <= 10; i += 1) entries = rotate(entries, entry(String(i)), 3_600, now);
    expect(entries).toHaveLength(MAX_ACTIVE_SECRETS);
  });
});
