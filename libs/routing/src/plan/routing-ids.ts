import { deterministicUuid } from '@lomo/contracts';

/** A new task's id derives from the message that started it, so a redelivered message finds the same task. */
export const taskIdFor = (messageId: string) => deterministicUuid('lomo.task', messageId);

/** Main's reply to a message: one per message. */
export const replyIdFor = (messageId: string) => deterministicUuid('lomo.main-reply', messageId);

/** A task's goal is at most 2000 UTF-16 units (the contract's measure); a surrogate pair is never split. */
export function goalFrom(text: string, max = 2000): string {
  const trimmed = text.trim();
  if (trimmed.length <= max) return trimmed;
  const cut = trimmed.slice(0, max);
  const last = cut.charCodeAt(cut.length - 1);
  return last >= 0xd800 && last <= 0xdbff ? cut.slice(0, -1) : cut;
}
