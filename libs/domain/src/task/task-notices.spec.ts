import { deciderSpec } from '@lomo/testing';
import { fold } from '../decider';
import type { NoticeArtifactChange } from './task-commands';
import { taskDecider } from './task-decider';
import type { TaskEvent } from './task-events';
import { noticesConsumedAt, openNotices } from './task-queries';
import { activeWithInbox, claimed, ids, taskCreated, turnOpened } from './task.fixtures';

const { given } = deciderSpec(taskDecider);
const artifact = '44444444-4444-4444-8444-444444444444';
const otherArtifact = '55555555-5555-4555-8555-555555555555';
const person = { kind: 'person' as const, userId: 'u1' };
const noticeIdOf = (to: number) => `aaaaaaaa-aaaa-4aaa-8aaa-${to.toString().padStart(12, '0')}`;

const notice = (fromVersion: number, toVersion: number, extra: Partial<NoticeArtifactChange> = {}) =>
  ({
    type: 'NoticeArtifactChange',
    noticeId: noticeIdOf(toVersion),
    artifactId: artifact,
    fromVersion,
    toVersion,
    by: person,
    nodes: ['a'],
    summary: `v${toVersion}`,
    ...extra,
  }) satisfies NoticeArtifactChange;

const noticed = (fromVersion: number, toVersion: number, nodes = ['a']): TaskEvent => ({
  type: 'ArtifactChangeNoticed',
  data: {
    noticeId: noticeIdOf(toVersion),
    artifactId: artifact,
    fromVersion,
    toVersion,
    by: person,
    nodes,
    summary: `v${toVersion}`,
  },
});
const consumed = (step: number, noticeIds: string[]): TaskEvent => ({
  type: 'ArtifactChangeNoticesConsumed',
  data: { turnId: ids.turn1, step, noticeIds },
});
const waiting = [taskCreated(), turnOpened()];

describe('task: change notices coalesce, at most one open per (task, artefact)', () => {
  it('a first change opens a notice from the version the task saw to the new one', () => {
    given(waiting)
      .when(notice(3, 4))
      .then([noticed(3, 4)]);
  });

  it('a newer version widens the open notice (same notice id, nodes joined) instead of adding one', () => {
    given([...waiting, noticed(3, 4)])
      .when(notice(3, 5, { nodes: ['b'] }))
      .then([
        {
          type: 'ArtifactChangeNoticeWidened',
          data: { noticeId: noticeIdOf(4), toVersion: 5, by: person, nodes: ['a', 'b'], summary: 'v5' },
        },
      ]);
  });

  it('a version the open notice already reaches, or a repeated notice id, is a no-op', () => {
    given([...waiting, noticed(3, 5)])
      .when(notice(3, 4))
      .then([]);
    given([...waiting, noticed(3, 5)])
      .when(notice(3, 5))
      .then([]);
  });

  it('a version a consumed notice covered is a no-op; a later one starts where that notice ended', () => {
    const history = [...waiting, noticed(3, 5), consumed(1, [noticeIdOf(5)])];
    given(history)
      .when(notice(3, 5, { noticeId: noticeIdOf(99) }))
      .then([]);
    given(history)
      .when(notice(3, 6))
      .then([noticed(5, 6)]);
  });

  it('a span that does not move forward is refused as invalid input', () => {
    given(waiting).when(notice(4, 4)).thenThrows('INVALID_COMMAND');
  });

  it('notices of different artefacts stay apart', () => {
    const state = fold(taskDecider, [...waiting, noticed(1, 2)]);
    const events = taskDecider.decide(notice(1, 2, { artifactId: otherArtifact, noticeId: noticeIdOf(77) }), state);
    expect(events.map((e) => e.type)).toEqual(['ArtifactChangeNoticed']);
  });
});

describe('task: a step consumes the open notices it is shown, with its claim', () => {
  it('the claim consumes open notices in the same decision, and claims the messages too', () => {
    given([...activeWithInbox(), noticed(1, 2)])
      .when({ type: 'ClaimInboxItems', turnId: ids.turn1, step: 1 })
      .then([claimed(ids.turn1, 1, [ids.item1, ids.item2]), consumed(1, [noticeIdOf(2)])]);
  });

  it('a step with notices and no message consumes the notices alone', () => {
    given([...waiting, noticed(1, 2)])
      .when({ type: 'ClaimInboxItems', turnId: ids.turn1, step: 2 })
      .then([consumed(2, [noticeIdOf(2)])]);
  });

  it('a takeover of the same step reuses its consumption; a notice that came after it waits for the next step', () => {
    const history = [...waiting, noticed(1, 2), consumed(1, [noticeIdOf(2)]), noticed(2, 3)];
    given(history).when({ type: 'ClaimInboxItems', turnId: ids.turn1, step: 1 }).then([]);
    const state = fold(taskDecider, history);
    expect(noticesConsumedAt(state, ids.turn1, 1).map((n) => n.toVersion)).toEqual([2]);
    expect(openNotices(state).map((n) => n.noticeId)).toEqual([noticeIdOf(3)]);
  });
});
