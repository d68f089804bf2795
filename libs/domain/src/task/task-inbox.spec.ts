import { fold } from '../decider';
import { deciderSpec } from '@lomo/testing';
import { taskDecider } from './task-decider';
import { claimFor, claimedItems, standingClaims, unclaimedItems } from './task-queries';
import {
  activeWithInbox,
  claimed,
  delivered,
  ids,
  released,
  stopped,
  taskCreated,
  turnClosed,
  turnOpened,
} from './task.fixtures';
import type { TaskEvent } from './task-events';

const { given } = deciderSpec(taskDecider);
const withdrawn = (itemId: string): TaskEvent => ({ type: 'InboxItemWithdrawn', data: { itemId, by: 'u1' } });

describe('task: an inbox item is consumed by exactly one step, or withdrawn / replaced, never both', () => {
  it('a step claims every delivered, unclaimed item in delivery order', () => {
    given(activeWithInbox())
      .when({ type: 'ClaimInboxItems', turnId: ids.turn1, step: 1 })
      .then([claimed(ids.turn1, 1, [ids.item1, ids.item2])]);
  });

  it('a later step claims only what arrived after the earlier claim', () => {
    given([...activeWithInbox(), claimed(ids.turn1, 1, [ids.item1, ids.item2]), delivered(ids.item3)])
      .when({ type: 'ClaimInboxItems', turnId: ids.turn1, step: 2 })
      .then([claimed(ids.turn1, 2, [ids.item3])]);
  });

  it('a takeover of the same turn and step reuses the standing claim', () => {
    const history = [...activeWithInbox(), claimed(ids.turn1, 1, [ids.item1]), delivered(ids.item3)];
    given(history).when({ type: 'ClaimInboxItems', turnId: ids.turn1, step: 1 }).then([]);
    expect(claimFor(fold(taskDecider, history), ids.turn1, 1)?.itemIds).toEqual([ids.item1]);
  });

  it('claims nothing when nothing is waiting', () => {
    given([taskCreated(), turnOpened()]).when({ type: 'ClaimInboxItems', turnId: ids.turn1, step: 1 }).then([]);
  });

  it('never claims a withdrawn item', () => {
    given([...activeWithInbox(), withdrawn(ids.item1)])
      .when({ type: 'ClaimInboxItems', turnId: ids.turn1, step: 1 })
      .then([claimed(ids.turn1, 1, [ids.item2])]);
  });

  it('a replaced item is claimed once, with the replacement text', () => {
    const history: TaskEvent[] = [
      ...activeWithInbox(),
      { type: 'InboxItemReplaced', data: { itemId: ids.item1, text: 'a blue poster', language: 'en', by: 'u1' } },
      claimed(ids.turn1, 1, [ids.item1, ids.item2]),
    ];
    const items = claimedItems(fold(taskDecider, history), ids.turn1, 1);
    expect(items.map((i) => [i.itemId, i.text])).toEqual([
      [ids.item1, 'a blue poster'],
      [ids.item2, 'message 2'],
    ]);
    given(history).when({ type: 'ClaimInboxItems', turnId: ids.turn1, step: 2 }).then([]);
  });

  it('only the active turn claims (a cancelled turn cannot take messages)', () => {
    given([...activeWithInbox(), turnClosed(ids.turn1, 'cancelled')])
      .when({ type: 'ClaimInboxItems', turnId: ids.turn1, step: 2 })
      .thenThrows('TURN_NOT_ACTIVE');
  });

  it('refuses a step number below 1', () => {
    given(activeWithInbox())
      .when({ type: 'ClaimInboxItems', turnId: ids.turn1, step: 0 })
      .thenThrows('INVALID_COMMAND');
  });
});

describe('task: withdraw / replace is refused once claimed', () => {
  const claimedHistory = [...activeWithInbox(), claimed(ids.turn1, 1, [ids.item1, ids.item2])];

  it('refuses to withdraw a claimed item', () => {
    given(claimedHistory)
      .when({ type: 'WithdrawInboxItem', itemId: ids.item1, by: 'u1' })
      .thenThrows('INBOX_ITEM_CLAIMED');
  });

  it('refuses to replace a claimed item', () => {
    given(claimedHistory)
      .when({ type: 'ReplaceInboxItem', itemId: ids.item2, text: 'changed my mind', language: 'en', by: 'u1' })
      .thenThrows('INBOX_ITEM_CLAIMED');
  });

  it('withdraws an unclaimed item once; withdrawing it again writes nothing', () => {
    given(activeWithInbox())
      .when({ type: 'WithdrawInboxItem', itemId: ids.item1, by: 'u1' })
      .then([withdrawn(ids.item1)]);
    given([...activeWithInbox(), withdrawn(ids.item1)])
      .when({ type: 'WithdrawInboxItem', itemId: ids.item1, by: 'u1' })
      .then([]);
  });

  it('replaces an unclaimed item, but not a withdrawn or unknown one', () => {
    given(activeWithInbox())
      .when({ type: 'ReplaceInboxItem', itemId: ids.item1, text: 'a red poster', language: 'en', by: 'u1' })
      .then([
        { type: 'InboxItemReplaced', data: { itemId: ids.item1, text: 'a red poster', language: 'en', by: 'u1' } },
      ]);
    given([...activeWithInbox(), withdrawn(ids.item1)])
      .when({ type: 'ReplaceInboxItem', itemId: ids.item1, text: 'a red poster', language: 'en', by: 'u1' })
      .thenThrows('INBOX_ITEM_WITHDRAWN');
    given(activeWithInbox())
      .when({ type: 'WithdrawInboxItem', itemId: ids.item3, by: 'u1' })
      .thenThrows('INBOX_ITEM_NOT_FOUND');
  });

  it('allows withdrawing again once the claim was released', () => {
    given([...claimedHistory, released(ids.turn1, 1, [ids.item1, ids.item2])])
      .when({ type: 'WithdrawInboxItem', itemId: ids.item1, by: 'u1' })
      .then([withdrawn(ids.item1)]);
  });
});

describe('task: a claimed item whose step never commits is released, never lost', () => {
  const twoSteps = [
    ...activeWithInbox(),
    claimed(ids.turn1, 1, [ids.item1]),
    delivered(ids.item3),
    claimed(ids.turn1, 2, [ids.item2, ids.item3]),
  ];

  it('releases the claims of the first uncommitted step and later, never an earlier committed one', () => {
    given(twoSteps)
      .when({ type: 'ReleaseClaims', turnId: ids.turn1, step: 2, reason: 'turn_cancelled' })
      .then([released(ids.turn1, 2, [ids.item2, ids.item3])]);
  });

  it('hands the released items to the next turn', () => {
    const history = [
      ...twoSteps,
      turnClosed(ids.turn1, 'cancelled'),
      released(ids.turn1, 2, [ids.item2, ids.item3]),
      turnOpened(ids.turn2),
    ];
    expect(unclaimedItems(fold(taskDecider, history)).map((i) => i.itemId)).toEqual([ids.item2, ids.item3]);
    given(history)
      .when({ type: 'ClaimInboxItems', turnId: ids.turn2, step: 1 })
      .then([claimed(ids.turn2, 1, [ids.item2, ids.item3])]);
  });

  it('lets the same turn claim its abandoned step afresh', () => {
    given([...twoSteps, released(ids.turn1, 2, [ids.item2, ids.item3], 'step_abandoned')])
      .when({ type: 'ClaimInboxItems', turnId: ids.turn1, step: 2 })
      .then([claimed(ids.turn1, 2, [ids.item2, ids.item3])]);
  });

  it('writes nothing when there is nothing left to release', () => {
    const history = [...twoSteps, released(ids.turn1, 2, [ids.item2, ids.item3])];
    given(history).when({ type: 'ReleaseClaims', turnId: ids.turn1, step: 2, reason: 'turn_failed' }).then([]);
    expect(standingClaims(fold(taskDecider, history), ids.turn1)).toHaveLength(1);
  });

  it('releases even on a stopped task, so the messages stay on record as unread', () => {
    given([...twoSteps, stopped(ids.turn1)])
      .when({ type: 'ReleaseClaims', turnId: ids.turn1, step: 2, reason: 'turn_cancelled' })
      .then([released(ids.turn1, 2, [ids.item2, ids.item3])]);
  });
});

describe('task: delivery is idempotent on the message id', () => {
  it('delivers a new message as an inbox item whose id is the message id', () => {
    given([taskCreated()])
      .when({ type: 'DeliverMessage', itemId: ids.item1, text: 'message 1', language: 'en' })
      .then([delivered(ids.item1, 'message 1')]);
  });

  it('writes nothing when the same message is delivered again, whatever happened to it since', () => {
    const cmd = { type: 'DeliverMessage' as const, itemId: ids.item1, text: 'message 1', language: 'en' };
    given([taskCreated(), delivered(ids.item1)])
      .when(cmd)
      .then([]);
    given([...activeWithInbox(), claimed(ids.turn1, 1, [ids.item1])])
      .when(cmd)
      .then([]);
    given([taskCreated(), delivered(ids.item1), stopped()])
      .when(cmd)
      .then([]);
  });

  it('refuses a delivery to a task that does not exist', () => {
    given([])
      .when({ type: 'DeliverMessage', itemId: ids.item1, text: 'hello', language: 'en' })
      .thenThrows('TASK_NOT_FOUND');
  });
});
