import { Inject } from '@nestjs/common';
import { CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import { BLOB_STORE, type BlobStore } from '@lomo/blobs';
import { CLOCK, ID_GENERATOR, deterministicUuid, type Clock, type IdGenerator } from '@lomo/contracts';
import type { ForgettingState, MemoryState } from '@lomo/domain';
import { EVENT_STORE, type EventStore } from '@lomo/eventstore';
import { memoryText } from '@lomo/memory';
import { messageLanguage } from '../messages/message-language';
import { checkCorrectable, correctionCommands } from './correction-plan';
import { forgettingImpact } from './forgetting-impact';
import {
  CancelMemoryForgetting,
  ConfirmMemoryForgetting,
  CorrectPersonMemory,
  RequestMemoryForgetting,
  type CorrectionResult,
  type ForgettingRequestResult,
  type ForgettingResult,
} from './memory-commands';
import { decideOnMemory, type MemoryCommandDeps, type MemoryOwner, type MemoryStreamCache } from '@lomo/memory';
import { MEMORY_COMMAND_STREAMS } from './memory-command-streams';

// The person's commands on their own memory. Forgetting only records the person's request,
// confirmation or cancellation: the cascade runner does the forgetting once it is confirmed.

const forgettingIn = (state: MemoryState, forgettingId: string): ForgettingState => state.forgettings[forgettingId];

abstract class MemoryHandler {
  protected readonly deps: MemoryCommandDeps;
  constructor(
    store: EventStore,
    ids: IdGenerator,
    private readonly folds: MemoryStreamCache,
  ) {
    this.deps = { store, ids };
  }

  /**
   * One decision on the person's memory stream, from this process's cached fold (only the events
   * after it are read: a request and its confirmation do not fold a 30 000-event stream twice).
   */
  protected async decide(person: MemoryOwner, command: Parameters<typeof decideOnMemory>[2]) {
    const known = this.folds.known(person.workspaceId, person.userId);
    const result = await decideOnMemory(this.deps, person, command, undefined, known);
    if (result.revision !== 'no_stream')
      this.folds.remember(person.workspaceId, person.userId, result.state, result.revision);
    return result;
  }

  /** The person's memory as of now, from the cached fold. */
  protected read(person: MemoryOwner) {
    return this.folds.state(person.workspaceId, person.userId);
  }
}

@CommandHandler(RequestMemoryForgetting)
export class RequestMemoryForgettingHandler
  extends MemoryHandler
  implements ICommandHandler<RequestMemoryForgetting, ForgettingRequestResult>
{
  constructor(
    @Inject(EVENT_STORE) store: EventStore,
    @Inject(ID_GENERATOR) ids: IdGenerator,
    @Inject(MEMORY_COMMAND_STREAMS) streams: MemoryStreamCache,
  ) {
    super(store, ids, streams);
  }

  async execute(c: RequestMemoryForgetting): Promise<ForgettingRequestResult> {
    const result = await this.decide(c.person, {
      type: 'RequestForgetting',
      forgettingId: c.forgettingId,
      target: c.target,
      requestedBy: c.person.userId,
    });
    const forgetting = forgettingIn(result.state, c.forgettingId);
    return {
      changed: result.changed,
      writes: result.writes,
      forgetting,
      affects: forgettingImpact(result.state, forgetting.evidenceIds),
    };
  }
}

@CommandHandler(ConfirmMemoryForgetting)
export class ConfirmMemoryForgettingHandler
  extends MemoryHandler
  implements ICommandHandler<ConfirmMemoryForgetting, ForgettingResult>
{
  constructor(
    @Inject(EVENT_STORE) store: EventStore,
    @Inject(ID_GENERATOR) ids: IdGenerator,
    @Inject(MEMORY_COMMAND_STREAMS) streams: MemoryStreamCache,
  ) {
    super(store, ids, streams);
  }

  async execute(c: ConfirmMemoryForgetting): Promise<ForgettingResult> {
    const { forgettingId, person } = c;
    const result = await this.decide(person, {
      type: 'ConfirmForgetting',
      forgettingId,
      confirmedBy: person.userId,
    });
    return { changed: result.changed, writes: result.writes, forgetting: forgettingIn(result.state, forgettingId) };
  }
}

@CommandHandler(CancelMemoryForgetting)
export class CancelMemoryForgettingHandler
  extends MemoryHandler
  implements ICommandHandler<CancelMemoryForgetting, ForgettingResult>
{
  constructor(
    @Inject(EVENT_STORE) store: EventStore,
    @Inject(ID_GENERATOR) ids: IdGenerator,
    @Inject(MEMORY_COMMAND_STREAMS) streams: MemoryStreamCache,
  ) {
    super(store, ids, streams);
  }

  async execute(c: CancelMemoryForgetting): Promise<ForgettingResult> {
    const { forgettingId, person } = c;
    const result = await this.decide(person, {
      type: 'CancelForgetting',
      forgettingId,
      by: person.userId,
    });
    return { changed: result.changed, writes: result.writes, forgetting: forgettingIn(result.state, forgettingId) };
  }
}

/**
 * The text goes into the BlobStore before the version that names it is appended (DESIGN.md §4
 * "Deletable content": the event holds the reference and hash). The refusals are checked first on
 * the stream as read, so bad input stores no text; a refusal met only on the retried state (a
 * concurrent forgetting) leaves a content-addressed blob no event names, which is not deleted:
 * the same bytes may be another version's.
 */
@CommandHandler(CorrectPersonMemory)
export class CorrectPersonMemoryHandler
  extends MemoryHandler
  implements ICommandHandler<CorrectPersonMemory, CorrectionResult>
{
  constructor(
    @Inject(EVENT_STORE) store: EventStore,
    @Inject(ID_GENERATOR) ids: IdGenerator,
    @Inject(MEMORY_COMMAND_STREAMS) streams: MemoryStreamCache,
    @Inject(BLOB_STORE) private readonly blobs: BlobStore,
    @Inject(CLOCK) private readonly clock: Clock,
  ) {
    super(store, ids, streams);
  }

  async execute(c: CorrectPersonMemory): Promise<CorrectionResult> {
    const { person, memoryId, text } = c;
    const at = this.clock.now().toISOString();
    const validFrom = c.options.validFrom ?? at;
    const value = c.options.value ?? text;
    const ids = this.idsOf(c);
    const read = await this.read(person);
    const known = read.state.versions[ids.versionId];
    if (known === undefined) checkCorrectable(read.state, memoryId, validFrom);
    const subject = read.state.memories[memoryId].subject;
    const textRef = await this.blobs.put(memoryText(text, subject, value), 'text/plain');
    const result = await this.decide(person, (state) =>
      correctionCommands(state, {
        memoryId,
        ...ids,
        language: messageLanguage(text, c.options.language),
        text,
        value,
        textRef,
        validFrom,
        at,
      }),
    );
    const version = result.state.versions[ids.versionId];
    return {
      changed: result.changed,
      writes: result.writes,
      memoryId,
      versionId: version.versionId,
      version: version.version,
      correctedVersionId: version.derivedFrom[0],
      validFrom: version.validFrom,
    };
  }

  /** Ids of the correction: from the client's own id when given, so a retry is a no-op. */
  private idsOf(c: CorrectPersonMemory): { versionId: string; evidenceId: string; messageId: string } {
    const key = c.options.clientCorrectionId;
    const { workspaceId, userId } = c.person;
    const id = (what: string) =>
      key === undefined
        ? this.deps.ids.uuid()
        : deterministicUuid(`lomo.memory.correction.${what}`, workspaceId, userId, c.memoryId, key);
    return { versionId: id('version'), evidenceId: id('evidence'), messageId: id('message') };
  }
}
