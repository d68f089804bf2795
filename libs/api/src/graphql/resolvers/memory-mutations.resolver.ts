import { randomUUID } from 'node:crypto';
import { Inject } from '@nestjs/common';
import { CommandBus } from '@nestjs/cqrs';
import { Args, Mutation, Resolver } from '@nestjs/graphql';
import {
  CancelMemoryForgetting,
  ConfirmMemoryForgetting,
  CorrectPersonMemory,
  RequestMemoryForgetting,
  type ForgettingImpact,
  type ForgettingRequestResult,
  type ForgettingResult,
  type MemoryCorrectionResult,
} from '@lomo/application';
import type { Caller } from '@lomo/auth';
import { CLOCK, deterministicUuid, validationFailed, type Clock } from '@lomo/contracts';
import { CurrentCaller } from '../../auth/current-caller.decorator';
import { tokenForWrites } from '../../consistency/token-for-writes';
import { requireMemoryOwner } from '../../tenancy/memory-access';
import { validate } from '../args/input-schemas';
import {
  CorrectMemoryArgs,
  ForgetMemoryArgs,
  ForgettingIdArgs,
  correctMemoryArgsSchema,
  forgetMemoryArgsSchema,
  forgettingIdArgsSchema,
} from '../args/memory.args';
import { mapForgettingImpact, mapForgettingState } from '../mappers/map-memory';
import { CorrectMemoryPayload, ForgetMemoryPayload, ForgettingChangePayload } from '../types/forgetting.types';

const scopeNote =
  'Forgetting concerns memory and the context derived from it (versions, summaries, the profile, search indexes, and the agent’s earlier outputs that relied on it, which later prompts leave out); it does not delete the raw chat record, artefacts or billing.';

/** What the person is asked before confirming: counts and consequences, no memory text. */
function questionOf(affects: ForgettingImpact): string {
  const versions = affects.purgedVersions.length;
  const parts = [
    `Forget what I learned from ${affects.evidenceIds.length} of your messages or actions?`,
    `${versions} memory version${versions === 1 ? '' : 's'} will be deleted`,
  ];
  if (affects.profileAffected) parts.push('your profile will be rewritten without them');
  if (affects.summariesInvalidated.length > 0) parts.push(`${affects.summariesInvalidated.length} summaries rebuilt`);
  return `${parts[0]} ${parts.slice(1).join('; ')}. Your messages stay in the chat, artefacts and billing are untouched. This cannot be undone.`;
}

/**
 * The person's changes to their own memory. forgetMemory only asks: the forgetting waits for
 * confirmForgetting (DESIGN.md §5), and the cascade runner carries it out once confirmed. Only a
 * person's token changes memory, and only its own (the stream is the caller's).
 */
@Resolver()
export class MemoryMutationsResolver {
  constructor(
    @Inject(CommandBus) private readonly commands: CommandBus,
    @Inject(CLOCK) private readonly clock: Clock,
  ) {}

  @Mutation(() => ForgetMemoryPayload, {
    description: `Asks to forget a memory (the evidence behind its versions) or given evidence, and says what that will affect. Nothing is forgotten until confirmForgetting; cancelForgetting drops it. ${scopeNote} NOT_FOUND for a memory or evidence you do not have; NOTHING_TO_FORGET when its evidence is already revoked; VALIDATION_FAILED unless exactly one of memoryId and evidenceIds is given; FORBIDDEN for tokens that are not a person's.`,
  })
  async forgetMemory(@CurrentCaller() caller: Caller, @Args() args: ForgetMemoryArgs): Promise<ForgetMemoryPayload> {
    const input = validate(forgetMemoryArgsSchema, args);
    const person = requireMemoryOwner(caller, 'forgets');
    const forgettingId =
      input.clientRequestId === undefined
        ? randomUUID()
        : deterministicUuid('lomo.api.forgetting', person.workspaceId, person.userId, input.clientRequestId);
    const target =
      input.memoryId !== undefined
        ? { kind: 'memory' as const, memoryId: input.memoryId }
        : { kind: 'evidence' as const, evidenceIds: [...new Set(input.evidenceIds!)] };
    const result = await this.commands.execute<RequestMemoryForgetting, ForgettingRequestResult>(
      new RequestMemoryForgetting(person, forgettingId, target),
    );
    return {
      forgetting: mapForgettingState(result.forgetting),
      affects: mapForgettingImpact(result.affects),
      question: questionOf(result.affects),
      created: result.changed,
      consistencyToken: tokenForWrites(result.writes),
    };
  }

  @Mutation(() => ForgettingChangePayload, {
    description: `Confirms a forgetting forgetMemory asked for: the forgetting is carried out in the background; follow it with \`forgetting(id)\` until COMPLETED and its report. ${scopeNote} NOT_FOUND for a forgetting you did not ask for; FORGETTING_NOT_CONFIRMABLE once cancelled; FORBIDDEN for tokens that are not a person's (operators included).`,
  })
  async confirmForgetting(
    @CurrentCaller() caller: Caller,
    @Args() args: ForgettingIdArgs,
  ): Promise<ForgettingChangePayload> {
    const { forgettingId } = validate(forgettingIdArgsSchema, args);
    const person = requireMemoryOwner(caller, 'confirms forgetting');
    const result = await this.commands.execute<ConfirmMemoryForgetting, ForgettingResult>(
      new ConfirmMemoryForgetting(person, forgettingId),
    );
    return this.changed(result);
  }

  @Mutation(() => ForgettingChangePayload, {
    description:
      "Drops a forgetting that waits for confirmation: nothing is forgotten. NOT_FOUND for a forgetting you did not ask for; FORGETTING_NOT_CANCELLABLE once confirmed; FORBIDDEN for tokens that are not a person's.",
  })
  async cancelForgetting(
    @CurrentCaller() caller: Caller,
    @Args() args: ForgettingIdArgs,
  ): Promise<ForgettingChangePayload> {
    const { forgettingId } = validate(forgettingIdArgsSchema, args);
    const person = requireMemoryOwner(caller, 'cancels forgetting of');
    const result = await this.commands.execute<CancelMemoryForgetting, ForgettingResult>(
      new CancelMemoryForgetting(person, forgettingId),
    );
    return this.changed(result);
  }

  @Mutation(() => CorrectMemoryPayload, {
    description:
      "Corrects a memory (“that's wrong, it's green now”): a new version, yours in so many words, valid from `validFrom` (default now); the version it corrects stays the answer for the time before. NOT_FOUND for a memory you do not have; VERSION_NOT_CURRENT when none of its versions stands (it was forgotten); VALIDATION_FAILED for a `validFrom` in the future or before the corrected version began; FORBIDDEN for tokens that are not a person's.",
  })
  async correctMemory(@CurrentCaller() caller: Caller, @Args() args: CorrectMemoryArgs): Promise<CorrectMemoryPayload> {
    const input = validate(correctMemoryArgsSchema, args);
    const person = requireMemoryOwner(caller, 'corrects');
    const validFrom = input.validFrom === undefined ? undefined : new Date(input.validFrom).toISOString();
    if (validFrom !== undefined && Date.parse(validFrom) > this.clock.now().getTime())
      throw validationFailed([{ path: 'validFrom', message: 'a correction holds from now or earlier' }]);
    const result = await this.commands.execute<CorrectPersonMemory, MemoryCorrectionResult>(
      new CorrectPersonMemory(person, input.memoryId, input.text, {
        ...(input.value !== undefined ? { value: input.value } : {}),
        ...(validFrom !== undefined ? { validFrom } : {}),
        ...(input.language !== undefined ? { language: input.language } : {}),
        ...(input.clientCorrectionId !== undefined ? { clientCorrectionId: input.clientCorrectionId } : {}),
      }),
    );
    return {
      memoryId: result.memoryId,
      versionId: result.versionId,
      version: result.version,
      correctedVersionId: result.correctedVersionId,
      validFrom: result.validFrom,
      changed: result.changed,
      consistencyToken: tokenForWrites(result.writes),
    };
  }

  private changed(result: ForgettingResult): ForgettingChangePayload {
    return {
      forgetting: mapForgettingState(result.forgetting),
      changed: result.changed,
      consistencyToken: tokenForWrites(result.writes),
    };
  }
}
