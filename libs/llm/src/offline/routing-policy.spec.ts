import { RoutingAnswer, type RoutingPrompt, type RoutingPromptCandidate } from '@lomo/contracts';
import { tokenSet } from '@lomo/text';
import { hasSimplifiedOnly } from './han-script';
import { ROUTING_POLICY, routeOffline } from './routing-policy';
import { routerPhrase } from './router-phrases';

let minute = 0;
const task = (ref: string, goal: string, extra: Partial<RoutingPromptCandidate> = {}): RoutingPromptCandidate => ({
  ref,
  goal,
  summary: null,
  kind: 'persistent',
  status: 'active',
  lastActiveAt: new Date(Date.UTC(2026, 0, 1, 0, (minute += 1))).toISOString(),
  source: 'recent',
  ...extra,
});

const prompt = (
  text: string,
  candidates: RoutingPromptCandidate[] = [],
  extra: Partial<RoutingPrompt> & { language?: string } = {},
): RoutingPrompt => ({
  message: { text, language: extra.language ?? 'en', channel: 'ui' },
  candidates,
  pendingClarification: extra.pendingClarification ?? null,
});

const route = (...args: Parameters<typeof prompt>) => {
  const result = routeOffline(prompt(...args));
  // Every answer is a valid structured answer.
  expect(RoutingAnswer.parse(result)).toEqual(result);
  return result;
};

const garden = task('t1', 'Watercolour illustrations of a herb garden', { summary: 'basil and mint drafts done' });
const invoice = task('t2', 'Invoice template for the bakery', { summary: 'layout with logo at top' });

describe('routeOffline: pending clarification', () => {
  const pendingClarification = {
    question: 'Which one?',
    options: [
      { ref: 't1', label: 'Herb garden illustrations' },
      { ref: 't2', label: 'Bakery invoice template' },
      { ref: null, label: 'Start a new one' },
    ],
  };

  it('a text naming an option answers it with that task', () => {
    expect(route('the bakery invoice please', [garden, invoice], { pendingClarification })).toMatchObject({
      outcome: 'existing',
      taskRef: 't2',
    });
  });

  it('the option without a task answers "new", and a bare number picks by position', () => {
    expect(route('start a new one', [garden, invoice], { pendingClarification })).toMatchObject({
      outcome: 'new',
      goal: 'start a new one',
    });
    expect(route('1', [garden, invoice], { pendingClarification })).toMatchObject({
      outcome: 'existing',
      taskRef: 't1',
    });
  });
});

describe('routeOffline: content match and the margin', () => {
  it('a follow-up matching one task lexically goes to it, with scores for every candidate', () => {
    const result = route('more mint in the herb garden pictures', [garden, invoice]);
    expect(result).toMatchObject({ outcome: 'existing', taskRef: 't1' });
    expect(result.scores.map((s) => s.ref)).toEqual(['t1', 't2']);
    const [t1, t2] = result.scores.map((s) => s.score);
    expect(t1).toBeGreaterThanOrEqual(ROUTING_POLICY.matchThreshold);
    expect(t1 - t2).toBeGreaterThan(ROUTING_POLICY.clarifyMargin);
  });

  it('two tasks matching about equally get a clarification in the person language', () => {
    const a = task('t1', 'Flyer for the chess club tournament');
    const b = task('t2', 'Flyer for the chess club open day');
    const result = route('the chess club flyer needs bigger text', [a, b]);
    expect(result).toMatchObject({ outcome: 'clarify', taskRef: null, question: routerPhrase('ambiguous', 'en') });
    const fr = route('le flyer du club chess', [a, b], { language: 'fr' });
    expect(fr).toMatchObject({ outcome: 'clarify', question: routerPhrase('ambiguous', 'fr') });
  });

  it('words of how to change (warmer, bigger, 颜色, 一点) do not dilute the match, in Chinese too', () => {
    expect(route('the herb illustrations a bit brighter please', [garden, invoice])).toMatchObject({
      outcome: 'existing',
      taskRef: 't1',
    });
    const menu = task('t1', '面包店的菜单');
    const trip = task('t2', '露营装备清单');
    expect(route('菜单的字体改大一点', [menu, trip], { language: 'zh-Hans' })).toMatchObject({
      outcome: 'existing',
      taskRef: 't1',
    });
  });

  it('a making verb introducing a new object needs a close match to be a follow-up', () => {
    expect(route('design a flyer for the bakery', [invoice])).toMatchObject({ outcome: 'new' });
    expect(route('add a logo to the bakery invoice', [invoice])).toMatchObject({ outcome: 'existing', taskRef: 't2' });
  });

  it('asking for another one does not go back to the matching task', () => {
    expect(route('design another invoice template for a florist', [invoice])).toMatchObject({ outcome: 'new' });
  });
});

describe('routeOffline: deictic follow-ups', () => {
  it('go to the recent decision when nothing matches by content', () => {
    const just = task('t3', 'Logo for a kayak rental', { source: 'recent_decision' });
    const result = route('make it darker', [garden, just, invoice]);
    expect(result).toMatchObject({ outcome: 'existing', taskRef: 't3' });
    expect(result.scores.find((s) => s.ref === 't3')?.score).toBe(ROUTING_POLICY.deicticScore);
  });

  it('a reference back in time counts even beside a series word', () => {
    const result = route('tweak the previous batch of sets', [garden, invoice]);
    expect(result).toMatchObject({ outcome: 'existing', taskRef: 't2' });
  });

  it('a reference back in time that names part of one task goes to it, even beside a making verb', () => {
    // given an older poster task and a newer, unrelated one
    const posters = task('t1', 'Please make a series of three posters for the harbour lantern festival');
    const other = task('t2', 'Logo for a kayak rental');
    // when the person comes back to "the posters from last time" (1 of 3 content words match)
    const result = route('Make the posters from last time warmer, and move the text', [posters, other]);
    // then it goes to the poster task, its score raised past the router's margin guard
    expect(result).toMatchObject({ outcome: 'existing', taskRef: 't1' });
    expect(result.scores.find((s) => s.ref === 't1')?.score).toBe(ROUTING_POLICY.deicticScore);
    // and without the back-reference the same words open new work
    expect(route('Make the posters warmer, and move the text', [posters, other])).toMatchObject({ outcome: 'new' });
    // and two tasks matching alike are not guessed between
    const twin = task('t3', 'Three posters for the harbour regatta');
    expect(route('Make the posters from last time warmer', [posters, twin])).not.toMatchObject({ outcome: 'existing' });
  });

  it('else to the most recently active candidate, in Chinese too', () => {
    const older = task('t1', '露营装备清单', { lastActiveAt: '2026-01-01T00:00:00.000Z' });
    const newer = task('t2', '猫咪头像', { lastActiveAt: '2026-01-02T00:00:00.000Z' });
    expect(route('把它变成黑白的', [older, newer], { language: 'zh-Hans' })).toMatchObject({
      outcome: 'existing',
      taskRef: 't2',
    });
    expect(route('再来一张', [older, newer], { language: 'zh-Hans' })).toMatchObject({
      outcome: 'existing',
      taskRef: 't2',
    });
  });
});

describe('routeOffline: answers in Main', () => {
  it.each([
    ['hey there', 'en', 'greeting'],
    ['thanks a lot', 'en', 'thanks'],
    ['merci beaucoup', 'fr', 'thanks'],
    ['hallo', 'de', 'greeting'],
    ['hola', 'es', 'greeting'],
    ['您好', 'zh-Hans', 'greeting'],
  ] as const)('%j gets a short %s reply in %s', (text, language, kind) => {
    expect(route(text, [garden], { language })).toMatchObject({
      outcome: 'main',
      taskRef: null,
      reply: routerPhrase(kind, language),
    });
  });

  it('a question with no making verb is answered with what the demo can do, in its script', () => {
    expect(route('which file formats do you support?', [garden])).toMatchObject({
      outcome: 'main',
      reply: routerPhrase('capabilities', 'en'),
    });
    const hant = route('你們支援哪些格式？', [], { language: 'zh-Hant' });
    expect(hant).toMatchObject({ outcome: 'main' });
    expect(hasSimplifiedOnly(hant.reply ?? '')).toBe(false);
    const hans = route('你们支持哪些格式？', [], { language: 'zh-Hans' });
    expect(hans.reply).toBe(routerPhrase('capabilities', 'zh-Hans'));
  });
});

describe('routeOffline: new work', () => {
  it('a making verb with a one-shot object is lightweight; the goal is the trimmed text', () => {
    expect(route('  draw one picture of a lighthouse ')).toMatchObject({
      outcome: 'lightweight',
      goal: 'draw one picture of a lighthouse',
    });
    expect(route('给我画一张月亮的图', [], { language: 'zh-Hans' })).toMatchObject({ outcome: 'lightweight' });
  });

  it('a series or multi-step goal is a new persistent task', () => {
    expect(route('create a series of banners for our bicycle shop')).toMatchObject({ outcome: 'new' });
    expect(route('帮我做一套咖啡店的菜单设计', [], { language: 'zh-Hans' })).toMatchObject({ outcome: 'new' });
    expect(route('design a picture campaign for the museum')).toMatchObject({ outcome: 'new' });
  });

  it('a long request is new even with a one-shot object', () => {
    const long =
      'write one caption for the alpine hut website covering the history of the building, the owners, the menu, rooms, prices, trails nearby, winter access and booking';
    expect(tokenSet(long).size).toBeGreaterThan(ROUTING_POLICY.longMessageTokens);
    expect(route(long)).toMatchObject({ outcome: 'new' });
  });

  it('something neither question nor request asks which task it is for, or answers in Main with no tasks', () => {
    expect(route('purple', [garden, invoice])).toMatchObject({
      outcome: 'clarify',
      question: routerPhrase('whichTask', 'en'),
    });
    expect(route('purple', [])).toMatchObject({ outcome: 'main' });
  });
});
