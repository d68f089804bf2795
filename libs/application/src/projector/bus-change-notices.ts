import type { EventBus } from '@lomo/bus';
import { CHANGES_TOPIC, type ChangeNotice, type ChangeNoticeSink } from '@lomo/read-models';

/** Change notices on `lomo.changes`, keyed by document id (one document's notices stay in order). */
export class BusChangeNoticeSink implements ChangeNoticeSink {
  constructor(
    private readonly bus: EventBus,
    private readonly partitions: number,
  ) {}

  ensureTopic(): Promise<void> {
    return this.bus.ensureTopics([{ name: CHANGES_TOPIC, partitions: this.partitions }]);
  }

  async publish(notices: readonly ChangeNotice[]): Promise<void> {
    if (notices.length === 0) return;
    await this.bus.publish(
      CHANGES_TOPIC,
      notices.map((notice) => ({ key: notice.documentId, value: { ...notice } })),
    );
  }
}
