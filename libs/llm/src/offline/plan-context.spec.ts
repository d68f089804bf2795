import { parseTaskContext, splitSuffixes } from './plan-context';

// The checklist lines as the runtime's context builder writes them (README.md, "Plans",
// Context): `- [status] itemId: Title` and any number of ` {name: value}` suffixes.

const contextOf = (...items: string[]) =>
  parseTaskContext([
    {
      role: 'system',
      content: [
        'Task goal: a clip',
        'Language of the person: en',
        'Task kind: persistent',
        'Checklist:',
        ...items,
      ].join('\n'),
    },
  ]).checklist;

const A = '6f1c2a8e-2b7d-4c1e-9a55-0d3b8e41f2a7';
const B = '0b9e4d1c-7a3f-4e28-8c61-5f2d9a7b3e10';

describe('the plan context parser', () => {
  it('reads output, artefacts and review suffixes in any order, and ignores unknown ones', () => {
    expect(
      contextOf(
        `- [done] draft: Draft {output: artifact} {artefacts: ${A}} {review: approved}`,
        `- [in_progress] board: Board {review: adjust: fewer cuts} {artefacts: ${A}, ${B}} {output: artifact}`,
        '- [pending] clips: Clips {output: media video x3} {mood: calm}',
        '- [pending] still: Still {output: media image}',
        '- [pending] pick: Pick one {output: decision} {review: needed}',
        '- [pending] odd: Odd {output: media hologram x2}',
      ),
    ).toEqual([
      {
        itemId: 'draft',
        title: 'Draft',
        status: 'done',
        output: { kind: 'artifact' },
        artefacts: [A],
        review: { state: 'approved' },
      },
      {
        itemId: 'board',
        title: 'Board',
        status: 'in_progress',
        output: { kind: 'artifact' },
        artefacts: [A, B],
        review: { state: 'adjust', note: 'fewer cuts' },
      },
      { itemId: 'clips', title: 'Clips', status: 'pending', output: { kind: 'media', media: 'video', count: 3 } },
      { itemId: 'still', title: 'Still', status: 'pending', output: { kind: 'media', media: 'image', count: 1 } },
      {
        itemId: 'pick',
        title: 'Pick one',
        status: 'pending',
        output: { kind: 'decision' },
        review: { state: 'needed' },
      },
      // An output it cannot read is no output: the item is worked as the policy would without one.
      { itemId: 'odd', title: 'Odd', status: 'pending' },
    ]);
  });

  it('keeps braces of a note inside its suffix, and braces of a title in the title', () => {
    expect(splitSuffixes('Cut {output: artifact} {review: adjust: keep {the logo} small}')).toEqual({
      title: 'Cut',
      suffixes: new Map([
        ['review', 'adjust: keep {the logo} small'],
        ['output', 'artifact'],
      ]),
    });
    expect(splitSuffixes('Cut {review: adjust: a } b}').suffixes.get('review')).toBe('adjust: a } b');
    expect(splitSuffixes('Cut {review: adjust: close { unbalanced}').suffixes.get('review')).toBe(
      'adjust: close { unbalanced',
    );
    expect(splitSuffixes('Scene {2}')).toEqual({ title: 'Scene {2}', suffixes: new Map() });
    expect(splitSuffixes('Scene{x: y}')).toEqual({ title: 'Scene{x: y}', suffixes: new Map() });
  });
});
