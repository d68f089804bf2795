import { randomBytes } from 'node:crypto';
import { SecretBox } from './secret-box';
import { SecretUnreadableError } from './webhook-errors';
import { activeEntries, MAX_ACTIVE_SECRETS, revealSecrets, rotate, sealEntries } from './webhook-secrets';

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
    expect(activeEntries(rotated, new Date('2026-11-30T12:30:00.000Z')).map((e) => e.secret)).toEqual(['s-b', 's-c']);
  });

  it('drops previous secrets at once with no grace, and bounds how many stay active', () => {
    expect(rotate([entry('a')], entry('b'), 0, now).map((e) => e.id)).toEqual(['b']);
    let entries = [entry('0')];
    for (let i = 1; i <= 10; i += 1) entries = rotate(entries, entry(String(i)), 3_600, now);
    expect(entries).toHaveLength(MAX_ACTIVE_SECRETS);
  });
});

describe('secrets at rest', () => {
  const box = new SecretBox(randomBytes(32));

  it('seals plain values (a legacy document) and leaves sealed ones as they are', () => {
    const legacy = [entry('a'), entry('b')];
    expect(revealSecrets(box, 'w1', legacy)).toEqual(['s-a', 's-b']);
    const sealed = sealEntries(box, 'w1', legacy);
    expect(sealed.map((e) => SecretBox.isSealed(e.secret))).toEqual([true, true]);
    expect(JSON.stringify(sealed)).not.toContain('s-a');
    expect(sealed.map(({ secret: _, ...rest }) => rest)).toEqual(legacy.map(({ secret: _, ...rest }) => rest));
    expect(revealSecrets(box, 'w1', sealed)).toEqual(['s-a', 's-b']);
    expect(sealEntries(box, 'w1', sealed)).toEqual(sealed);
    const mixed = [sealed[0], entry('c')];
    expect(revealSecrets(box, 'w1', sealEntries(box, 'w1', mixed))).toEqual(['s-a', 's-c']);
  });

  it('binds a sealed value to its webhook and entry', () => {
    const [sealed] = sealEntries(box, 'w1', [entry('a')]);
    expect(() => revealSecrets(box, 'w2', [sealed])).toThrow(SecretUnreadableError);
    expect(() => revealSecrets(box, 'w1', [{ ...sealed, id: 'b' }])).toThrow(SecretUnreadableError);
  });
});
