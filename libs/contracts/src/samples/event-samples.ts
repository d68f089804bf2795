import type { EventType } from '../registry';

/**
 * One valid and at least one invalid data sample per event type. Used by the contract tests
 * and handy for adapters' tests that need real events.
 */
const T = '0b9c6f3e-8a51-4d7e-9a35-2f7c1d4e5a60';
const TURN = '5f1c2d3e-4b5a-4c6d-8e7f-9a0b1c2d3e4f';
const MSG = '7d2a9c1e-3f4b-4a5c-9d6e-1f2a3b4c5d6e';
const MSG2 = '8e3b0d2f-4a5c-4b6d-8e7f-2a3b4c5d6e7f';
const CP = '9f4c1e3a-5b6d-4c7e-8f9a-3b4c5d6e7f80';
const CALL = `${TURN}:1:0`;
const HASH = 'a'.repeat(64);
const JOB = 'a1b2c3d4-e5f6-4a7b-8c9d-0e1f2a3b4c5d';
const ART = 'b2c3d4e5-f6a7-4b8c-9d0e-1f2a3b4c5d6e';
const ENTRY = 'c3d4e5f6-a7b8-4c9d-8e1f-2a3b4c5d6e7f';
const AT = '2026-11-30T08:00:00.000Z';
const QUOTE = {
  quoteId: 'd4e5f6a7-b8c9-4d0e-8f2a-3b4c5d6e7f80',
  provider: 'simulated',
  units: 1,
  unit: 'image',
  unitPriceMinor: 400,
  amountMinor: 400,
  currency: 'USD',
};

export const sampleIds = { taskId: T, turnId: TURN, messageId: MSG, checkpointId: CP, callId: CALL } as const;

export const eventSamples: Record<EventType, { valid: Record<string, unknown>; invalid: Record<string, unknown>[] }> = {
  UserMessageReceived: {
    valid: {
      messageId: MSG,
      userId: 'u1',
      text: 'Make a poster',
      language: 'en',
      channel: 'ui',
      clientMessageId: 'c-1',
    },
    invalid: [
      { messageId: MSG, userId: 'u1', text: '   ', language: 'en', channel: 'ui' },
      { messageId: MSG, userId: 'u1', text: 'hi', language: 'en', channel: 'fax' },
      { messageId: MSG, userId: 'u1', text: 'hi', language: 'en', channel: 'ui', target: {} },
    ],
  },
  RoutingDecided: {
    valid: { messageId: MSG, outcome: 'new', taskId: T, method: 'deterministic', candidates: [] },
    invalid: [
      { messageId: MSG, outcome: 'main', taskId: T, method: 'semantic', candidates: [] },
      { messageId: MSG, outcome: 'new', taskId: null, method: 'semantic', candidates: [] },
    ],
  },
  ClarificationRequested: {
    valid: {
      messageId: MSG,
      cardId: MSG2,
      question: 'Which poster?',
      options: [
        { optionId: 'o1', label: 'The blue one', action: 'route', taskId: T },
        { optionId: 'new', label: 'Start a new one', action: 'new' },
      ],
      reason: 'ambiguous',
      language: 'en',
    },
    invalid: [
      { messageId: MSG, cardId: MSG2, question: '', options: [], reason: 'ambiguous', language: 'en' },
      { messageId: MSG, cardId: MSG2, question: 'Which?', options: [], reason: 'bored', language: 'en' },
    ],
  },
  ClarificationAnswered: {
    valid: { cardId: MSG2, messageId: MSG, answerMessageId: MSG2, optionId: 'o1', by: 'u1' },
    invalid: [{ cardId: MSG2, messageId: MSG, answerMessageId: MSG2, by: 'u1' }],
  },
  MainReplied: {
    valid: { messageId: MSG, replyId: MSG2, text: 'Hello!', language: 'en' },
    invalid: [{ messageId: MSG, replyId: 'r1', text: 'Hello!', language: 'en' }],
  },
  TaskCardShown: {
    valid: { cardId: MSG2, taskId: T, messageId: MSG, title: 'Poster', status: 'active' },
    invalid: [{ cardId: MSG2, taskId: T, title: 'Poster', status: 'running' }],
  },
  MessageReceiptReserved: {
    valid: { messageId: MSG, mainStreamId: 'main-ws1.u1', mainRevisionBefore: -1 },
    invalid: [{ messageId: MSG, mainStreamId: 'main-ws1.u1', mainRevisionBefore: -2 }],
  },
  TaskCreated: {
    valid: { taskId: T, kind: 'persistent', goal: 'Design a poster', language: 'en', originMessageId: MSG },
    invalid: [{ taskId: T, kind: 'forever', goal: 'Design a poster', language: 'en', originMessageId: MSG }],
  },
  TaskUpgraded: {
    valid: { from: 'lightweight', to: 'persistent', reason: 'needs several steps', by: { kind: 'agent' } },
    invalid: [{ from: 'persistent', to: 'lightweight', reason: 'x' }],
  },
  TaskSummaryUpdated: {
    valid: { summary: 'Three poster drafts, blue palette', turnId: TURN, by: { kind: 'agent' } },
    invalid: [{ summary: '', by: { kind: 'agent' } }],
  },
  MessageMoved: {
    valid: { itemId: MSG, messageId: MSG, toTaskId: T, consumed: false, by: 'u1' },
    invalid: [{ itemId: MSG, messageId: MSG, toTaskId: 'elsewhere', consumed: false, by: 'u1' }],
  },
  TasksMerged: {
    valid: { sourceTaskId: T, targetTaskId: MSG2, role: 'source', movedItemIds: [MSG], by: 'u1' },
    invalid: [{ sourceTaskId: T, targetTaskId: MSG2, role: 'both', movedItemIds: [], by: 'u1' }],
  },
  BriefUpdated: {
    valid: { version: 1, brief: 'A4 poster, blue', by: { kind: 'agent' }, callId: CALL },
    invalid: [{ version: 0, brief: 'A4 poster', by: { kind: 'agent' } }],
  },
  ChecklistPlanned: {
    valid: {
      items: [
        { itemId: 'draft', title: 'Draft', dependsOn: [] },
        { itemId: 'print', title: 'Print', dependsOn: ['draft'] },
      ],
    },
    invalid: [{ items: [] }],
  },
  ChecklistItemChanged: {
    valid: { itemId: 'draft', status: 'done' },
    invalid: [{ itemId: 'Draft Item', status: 'done' }],
  },
  MessageDeliveredToInbox: {
    valid: { itemId: MSG, messageId: MSG, text: 'Make it blue', language: 'en' },
    invalid: [{ itemId: MSG2, messageId: MSG, text: 'Make it blue', language: 'en' }],
  },
  InboxItemWithdrawn: { valid: { itemId: MSG, by: 'u1' }, invalid: [{ itemId: MSG }] },
  InboxItemReplaced: {
    valid: { itemId: MSG, text: 'Make it green', language: 'en', by: 'u1' },
    invalid: [{ itemId: MSG, text: '', language: 'en', by: 'u1' }],
  },
  InboxItemsClaimed: {
    valid: { turnId: TURN, step: 1, itemIds: [MSG] },
    invalid: [
      { turnId: TURN, step: 0, itemIds: [MSG] },
      { turnId: TURN, step: 1, itemIds: [] },
    ],
  },
  InboxItemsReleased: {
    valid: { turnId: TURN, step: 1, itemIds: [MSG], reason: 'turn_cancelled' },
    invalid: [{ turnId: TURN, step: 1, itemIds: [MSG], reason: 'bored' }],
  },
  TurnOpened: { valid: { turnId: TURN, reason: 'message' }, invalid: [{ turnId: 'turn-1', reason: 'message' }] },
  TurnClosed: { valid: { turnId: TURN, outcome: 'completed' }, invalid: [{ turnId: TURN, outcome: 'waiting' }] },
  ContinuationDecided: {
    valid: {
      turnId: TURN,
      decision: 'continue',
      reason: 'pending_items',
      progress: ['artifact_version'],
      autoTurns: 1,
      turnsWithoutProgress: 0,
      itemsDone: 1,
    },
    invalid: [
      {
        turnId: TURN,
        decision: 'go_on',
        reason: 'pending_items',
        progress: [],
        autoTurns: 1,
        turnsWithoutProgress: 0,
        itemsDone: 0,
      },
    ],
  },
  CheckpointOpened: {
    valid: { checkpointId: CP, turnId: TURN, kind: 'approval', callId: CALL, question: 'Delete the note?' },
    invalid: [
      { checkpointId: CP, turnId: TURN, kind: 'approval', question: 'Delete the note?' },
      {
        checkpointId: CP,
        turnId: TURN,
        kind: 'review',
        itemId: 'storyboard',
        question: 'Which one?',
        options: [
          { optionId: 'a', label: 'A' },
          { optionId: 'a', label: 'B' },
        ],
      },
    ],
  },
  CheckpointResolved: {
    valid: { checkpointId: CP, decision: 'approve', callId: CALL, resolvedBy: 'u1' },
    invalid: [
      { checkpointId: CP, decision: 'answer', resolvedBy: 'u1' },
      { checkpointId: CP, decision: 'adjust', resolvedBy: 'u1' },
      { checkpointId: CP, decision: 'choose', resolvedBy: 'u1' },
      { checkpointId: CP, decision: 'approve', choice: 'a', resolvedBy: 'u1' },
    ],
  },
  AutonomyChanged: { valid: { level: 'assisted', by: 'u1' }, invalid: [{ level: 'reckless', by: 'u1' }] },
  PlanBudgetApproved: {
    valid: { budgetId: MSG2, amountMinor: 5000, currency: 'EUR', approvedBy: 'u1' },
    invalid: [{ budgetId: MSG2, amountMinor: -1, currency: 'EUR', approvedBy: 'u1' }],
  },
  TaskPaused: { valid: { by: { kind: 'user', userId: 'u1' } }, invalid: [{ by: { kind: 'robot' } }] },
  TaskResumed: { valid: { by: { kind: 'user', userId: 'u1' } }, invalid: [{ by: { kind: 'user' } }] },
  TaskStopped: {
    valid: { by: { kind: 'user', userId: 'u1' }, reason: 'enough', cancelledTurnId: TURN },
    invalid: [{ by: { kind: 'user', userId: 'u1' }, cancelledTurnId: 'nope' }],
  },
  TaskCompleted: { valid: { summary: 'Poster done' }, invalid: [{ summary: 42 }] },
  TaskArchived: { valid: { by: { kind: 'system', component: 'janitor' } }, invalid: [{}] },
  ArtifactChangeNoticed: {
    valid: {
      noticeId: CP,
      artifactId: MSG2,
      fromVersion: 3,
      toVersion: 4,
      by: { kind: 'person', userId: 'u1' },
      nodes: ['n1'],
      summary: 'node n1 params',
    },
    invalid: [{ artifactId: MSG2, version: 3, by: { kind: 'user', userId: 'u1' } }],
  },
  ArtifactChangeNoticeWidened: {
    valid: { noticeId: CP, toVersion: 5, by: { kind: 'person', userId: 'u1' }, nodes: ['n1', 'n2'], summary: '' },
    invalid: [{ noticeId: CP, toVersion: 1, by: { kind: 'person', userId: 'u1' }, nodes: [], summary: '' }],
  },
  ArtifactChangeNoticesConsumed: {
    valid: { turnId: TURN, step: 2, noticeIds: [CP] },
    invalid: [{ turnId: TURN, step: 2, noticeIds: [] }],
  },
  ToolDomainsLoaded: {
    valid: { domains: ['video'], turnId: TURN, step: 2 },
    invalid: [{ domains: ['core'], turnId: TURN, step: 2 }],
  },
  ToolDomainsUnloaded: {
    valid: { domains: ['video', 'image'], reason: 'compression' },
    invalid: [{ domains: [], reason: 'compression' }],
  },
  HistorySegmentAppended: {
    valid: {
      segmentId: CP,
      covers: { from: { turnId: TURN, step: 1 }, to: { turnId: TURN, step: 8 }, steps: 8 },
      text: { hash: HASH, bytes: 420, contentType: 'text/plain' },
      tokens: 105,
      summarizer: 'extractive',
      supersedes: [],
    },
    invalid: [
      {
        segmentId: CP,
        covers: { from: { turnId: TURN, step: 1 }, to: { turnId: TURN, step: 8 }, steps: 0 },
        text: { hash: HASH, bytes: 420, contentType: 'text/plain' },
        tokens: 105,
        summarizer: 'extractive',
        supersedes: [],
      },
    ],
  },
  HistorySegmentsExcluded: {
    valid: { segmentIds: [CP], reason: 'correction' },
    invalid: [{ segmentIds: [CP], reason: 'because' }],
  },
  ConstraintsNoted: {
    valid: {
      itemId: MSG2,
      turnId: TURN,
      step: 3,
      constraints: [
        { constraintId: CP, subject: 'background', statement: 'make the background dark blue', replaces: JOB },
      ],
    },
    invalid: [{ itemId: MSG2, turnId: TURN, step: 3, constraints: [] }],
  },
  ContextExcluded: {
    valid: { forgettingId: ENTRY, messageIds: [MSG], steps: [{ turnId: TURN, step: 2 }], calls: [CALL] },
    invalid: [{ forgettingId: ENTRY, messageIds: ['nope'], steps: [] }],
  },
  ForkedFrom: {
    valid: {
      sourceTaskId: T,
      sourceRevision: 7,
      sourcePosition: '118',
      atStep: { turnId: TURN, step: 2 },
      turns: [{ sourceTurnId: TURN, forkTurnId: CP }],
      cancelledTurnId: CP,
      by: 'ops',
    },
    invalid: [{ sourceTaskId: T, sourceRevision: -1, sourcePosition: '', turns: [], by: 'ops' }],
  },
  ToolsArmed: {
    valid: { tools: ['notes.create', 'notes.list'], by: 'ops' },
    invalid: [{ tools: [], by: 'ops' }],
  },
  MemoryEvidenceRecorded: {
    valid: {
      evidenceId: MSG2,
      source: { kind: 'message', messageId: MSG, taskId: T, language: 'en' },
      at: AT,
      fingerprint: HASH,
    },
    invalid: [{ evidenceId: MSG2, source: { kind: 'web', url: 'x' }, at: AT, fingerprint: HASH }],
  },
  MemoryEvidenceCopied: {
    valid: { evidenceId: MSG2, taskId: T },
    invalid: [{ evidenceId: MSG2 }],
  },
  MemoryExtractionRecorded: {
    valid: {
      evidenceId: MSG2,
      extractor: 'offline_rules',
      candidates: 2,
      outcomes: [
        { index: 0, outcome: 'created', memoryId: ART, versionId: JOB },
        { index: 1, outcome: 'malformed', detail: 'subject missing' },
      ],
    },
    invalid: [
      { evidenceId: MSG2, extractor: 'offline_rules', candidates: 1, outcomes: [{ index: 0, outcome: 'kept' }] },
    ],
  },
  MemoryVersionCreated: {
    valid: {
      memoryId: ART,
      versionId: JOB,
      version: 1,
      subject: 'brand.colour.main',
      kind: 'fact',
      scope: { kind: 'long_term' },
      origin: 'explicit',
      text: { hash: HASH, bytes: 30, contentType: 'text/plain' },
      fingerprint: HASH,
      validFrom: AT,
      evidence: [{ evidenceId: MSG2, role: 'ORIGIN' }],
      derivedFrom: [],
      cause: 'extracted',
    },
    invalid: [
      {
        memoryId: ART,
        versionId: JOB,
        version: 1,
        subject: 'Brand Colour',
        kind: 'fact',
        scope: { kind: 'long_term' },
        origin: 'explicit',
        text: { hash: HASH, bytes: 30, contentType: 'text/plain' },
        fingerprint: HASH,
        validFrom: AT,
        evidence: [],
        derivedFrom: [],
        cause: 'extracted',
      },
    ],
  },
  MemoryVersionConfirmed: {
    valid: { memoryId: ART, versionId: JOB, evidenceId: MSG2 },
    invalid: [{ memoryId: ART, versionId: JOB }],
  },
  MemoryVersionSuperseded: {
    valid: { memoryId: ART, versionId: JOB, byVersionId: ENTRY, reason: 'corrected', validTo: AT },
    invalid: [{ memoryId: ART, versionId: JOB, byVersionId: ENTRY, reason: 'deleted' }],
  },
  ForgettingRequested: {
    valid: { forgettingId: ENTRY, target: { kind: 'memory', memoryId: ART }, evidenceIds: [MSG2], requestedBy: 'u1' },
    invalid: [{ forgettingId: ENTRY, target: { kind: 'memory', memoryId: ART }, evidenceIds: [], requestedBy: 'u1' }],
  },
  ForgettingConfirmed: {
    valid: { forgettingId: ENTRY, confirmedBy: 'u1' },
    invalid: [{ forgettingId: ENTRY }],
  },
  ForgettingCancelled: {
    valid: { forgettingId: ENTRY, by: 'u1' },
    invalid: [{ forgettingId: 'x', by: 'u1' }],
  },
  EvidenceRevoked: {
    valid: { forgettingId: ENTRY, evidenceIds: [MSG2] },
    invalid: [{ forgettingId: ENTRY, evidenceIds: [] }],
  },
  MemoryVersionPurged: {
    valid: { forgettingId: ENTRY, memoryId: ART, versionId: JOB },
    invalid: [{ forgettingId: ENTRY, memoryId: ART }],
  },
  MemoryEvidenceDetached: {
    valid: { forgettingId: ENTRY, memoryId: ART, versionId: JOB, evidenceId: MSG2 },
    invalid: [{ forgettingId: ENTRY, memoryId: ART, versionId: JOB }],
  },
  ExtractionSuppressed: {
    valid: { forgettingId: ENTRY, fingerprints: [HASH], throughEvidence: 7 },
    invalid: [{ forgettingId: ENTRY, fingerprints: ['blue'], throughEvidence: 7 }],
  },
  ProfileVersionPublished: {
    valid: {
      version: 2,
      text: { hash: HASH, bytes: 80, contentType: 'text/plain' },
      memoryVersionIds: [JOB],
      reason: 'forgetting',
      forgettingId: ENTRY,
    },
    invalid: [
      { version: 0, text: { hash: HASH, bytes: 80, contentType: 'text/plain' }, memoryVersionIds: [], reason: 'x' },
    ],
  },
  ProfileVersionPurged: {
    valid: { version: 1, forgettingId: ENTRY },
    invalid: [{ version: 0, forgettingId: ENTRY }],
  },
  EpisodeSummaryWritten: {
    valid: {
      summaryId: CP,
      taskId: T,
      text: { hash: HASH, bytes: 200, contentType: 'text/plain' },
      evidenceIds: [MSG2],
      memoryVersionIds: [JOB],
    },
    invalid: [
      {
        summaryId: CP,
        text: { hash: HASH, bytes: 200, contentType: 'text/plain' },
        evidenceIds: [],
        memoryVersionIds: [],
      },
    ],
  },
  EpisodeSummaryInvalidated: {
    valid: { summaryId: CP, forgettingId: ENTRY },
    invalid: [{ summaryId: CP }],
  },
  ForgettingCompleted: {
    valid: {
      forgettingId: ENTRY,
      report: {
        revokedEvidenceIds: [MSG2],
        purgedVersionIds: [JOB],
        reextractedVersionIds: [],
        detached: [],
        profileVersion: 2,
        purgedProfileVersions: [1],
        summariesInvalidated: [CP],
        summariesRebuilt: [],
        indexEntriesDeleted: [`memory:${JOB}`],
        suppressions: [HASH],
        blobsDeleted: [HASH],
        excluded: [{ taskId: T, messageIds: [MSG], steps: [{ turnId: TURN, step: 1 }], segmentIds: [] }],
      },
    },
    invalid: [{ forgettingId: ENTRY, report: {} }],
  },
  TurnStarted: {
    valid: { turnId: TURN, taskId: T, reason: 'message' },
    invalid: [{ turnId: TURN, reason: 'message' }],
  },
  TurnLeased: {
    valid: { workerId: 'executor-1', generation: 1, leaseUntil: '2026-11-30T10:00:30.000Z' },
    invalid: [{ workerId: 'executor-1', generation: 0, leaseUntil: '2026-11-30T10:00:30.000Z' }],
  },
  TurnLeaseRenewed: {
    valid: { workerId: 'executor-1', generation: 2, leaseUntil: '2026-11-30T10:01:00.000Z' },
    invalid: [{ workerId: 'executor 1', generation: 2, leaseUntil: 'tomorrow' }],
  },
  ModelStepCommitted: {
    valid: {
      step: 1,
      reply: 'Let me look that up.',
      toolCallIntents: [{ callId: CALL, tool: 'notes.search', arguments: { query: 'poster', limit: 5 } }],
      consumedItemIds: [MSG],
      usage: { inputTokens: 1200, outputTokens: 40 },
      promptRef: { hash: HASH, bytes: 5120, contentType: 'application/json' },
      finishReason: 'tool_calls',
    },
    invalid: [
      {
        step: 1,
        reply: '',
        toolCallIntents: [{ callId: 'call_1', tool: 'notes.search', arguments: {} }],
        consumedItemIds: [],
        usage: { inputTokens: 1, outputTokens: 1 },
        promptRef: { hash: HASH, bytes: 1, contentType: 'application/json' },
        finishReason: 'tool_calls',
      },
    ],
  },
  ToolCallStarted: {
    valid: { callId: CALL, tool: 'notes.search', idempotencyKey: CALL, attempt: 1 },
    invalid: [{ callId: CALL, tool: 'Notes Search', idempotencyKey: CALL, attempt: 1 }],
  },
  ToolCallCompleted: {
    valid: { callId: CALL, status: 'ok', result: { notes: [{ id: 'n1', title: 'Poster ideas' }] } },
    invalid: [{ callId: CALL, status: 'error', result: null }],
  },
  ToolCallOutcomeUnknown: {
    valid: { callId: CALL, reason: 'started_without_result_not_idempotent' },
    invalid: [{ callId: CALL, reason: 'dunno' }],
  },
  TurnWaiting: {
    valid: { on: { kind: 'checkpoint', checkpointId: CP } },
    invalid: [{ on: { kind: 'jobs', jobIds: [] } }],
  },
  TurnResumed: { valid: { reason: 'approval' }, invalid: [{ reason: 'boredom' }] },
  TurnCompleted: { valid: { steps: 3, summary: 'done' }, invalid: [{ steps: -1 }] },
  TurnFailed: {
    valid: { error: { code: 'MODEL_UNAVAILABLE', message: 'upstream 503', retriable: true } },
    invalid: [{ error: { code: 'model unavailable', message: 'x', retriable: true } }],
  },
  TurnCancelled: {
    valid: { by: { kind: 'user', userId: 'u1' }, reason: 'task_stopped' },
    invalid: [{ by: { kind: 'user', userId: 'u1' }, reason: 'whatever', extra: 1 }],
  },
  ArtifactCreated: {
    valid: {
      artifactId: MSG2,
      kind: 'document',
      title: 'Storyboard',
      createdBy: { kind: 'agent', taskId: T, callId: CALL },
      taskId: T,
      content: {
        type: 'document',
        text: { hash: HASH, bytes: 12, snapshot: { hash: HASH, bytes: 12, contentType: 'text/markdown' } },
      },
    },
    invalid: [
      {
        artifactId: MSG2,
        kind: 'spreadsheet',
        title: 'x',
        createdBy: { kind: 'person', userId: 'u1' },
        content: { type: 'asset_set', members: [] },
      },
      {
        artifactId: MSG2,
        kind: 'flow',
        title: ' ',
        createdBy: { kind: 'person', userId: 'u1' },
        content: { type: 'flow', nodes: [], edges: [] },
      },
    ],
  },
  ArtifactRevised: {
    valid: {
      version: 4,
      baseVersion: 3,
      by: { kind: 'person', userId: 'u1' },
      change: {
        type: 'snippets_edited',
        patch: { hash: HASH, bytes: 40, contentType: 'application/json' },
        edits: 1,
        summary: '1 snippet, +4 -2 chars',
        text: { hash: HASH, bytes: 14 },
      },
    },
    invalid: [{ version: 1, baseVersion: 0, by: { kind: 'agent' }, change: { type: 'replaced' } }],
  },
  FlowNodeRevised: {
    valid: {
      version: 5,
      nodeId: 'a',
      nodeVersion: 2,
      baseNodeVersion: 1,
      params: { prompt: 'warm' },
      by: { kind: 'person', userId: 'u1' },
    },
    invalid: [
      {
        version: 5,
        nodeId: 'a b',
        nodeVersion: 1,
        baseNodeVersion: 0,
        params: {},
        by: { kind: 'person', userId: 'u1' },
      },
    ],
  },
  FlowStructureChanged: {
    valid: {
      version: 3,
      structureVersion: 2,
      baseStructureVersion: 1,
      addedNodes: [{ nodeId: 'c', kind: 'image.generate', params: {}, version: 1 }],
      removedNodeIds: [],
      addedEdges: [{ edgeId: 'e2', from: 'b', to: 'c' }],
      removedEdgeIds: [],
      by: { kind: 'agent', taskId: T, callId: CALL },
    },
    invalid: [
      {
        version: 3,
        structureVersion: 1,
        baseStructureVersion: 0,
        addedNodes: [],
        removedNodeIds: [],
        addedEdges: [],
        removedEdgeIds: [],
        by: { kind: 'person', userId: 'u1' },
      },
    ],
  },
  ArtifactReferenced: {
    valid: { taskId: T, by: { kind: 'agent', taskId: T, callId: CALL } },
    invalid: [{ taskId: 'not-a-uuid', by: { kind: 'person', userId: 'u1' } }],
  },
  ArtifactDeletionRequested: {
    valid: { requestId: MSG, by: { kind: 'user', userId: 'u1' } },
    invalid: [{ requestId: 'x', by: { kind: 'user', userId: 'u1' } }],
  },
  ArtifactDeleted: {
    valid: { by: { kind: 'user', userId: 'u1' }, confirmation: { kind: 'checkpoint', taskId: T, checkpointId: CP } },
    invalid: [{ by: { kind: 'user', userId: 'u1' }, confirmation: { kind: 'none' } }],
  },
  GenerationRequested: {
    valid: {
      jobId: JOB,
      workspaceId: 'ws1',
      taskId: T,
      turnId: TURN,
      callId: CALL,
      provider: 'simulated',
      kind: 'image',
      operation: 'image.generate',
      params: { prompt: 'A poster of the harbour at dawn', options: { size: '1024x1024' } },
      quote: QUOTE,
      requestedAt: AT,
    },
    invalid: [
      {
        jobId: JOB,
        workspaceId: 'ws1',
        taskId: T,
        turnId: TURN,
        callId: `${CALL}:2`,
        provider: 'simulated',
        kind: 'image',
        operation: 'image.generate',
        params: { prompt: 'A poster', options: {} },
        quote: QUOTE,
        requestedAt: AT,
      },
      {
        jobId: JOB,
        workspaceId: 'ws1',
        taskId: T,
        turnId: TURN,
        callId: CALL,
        provider: 'simulated',
        kind: 'hologram',
        operation: 'image.generate',
        params: { prompt: 'A poster', options: {} },
        quote: { ...QUOTE, amountMinor: 1.5 },
        requestedAt: AT,
      },
    ],
  },
  GenerationApprovalRequested: {
    valid: {
      quoteId: '6f1c2a4e-8d3b-4c5a-9e7f-0a1b2c3d4e5f',
      checkpointId: '7a2d3b5f-9e4c-4d6b-8f8a-1b2c3d4e5f60',
      refusal: 'PAYMENT_QUOTE_NOT_APPROVED',
      askedAt: AT,
    },
    invalid: [{ quoteId: 'q', checkpointId: 'c', refusal: 'not a code', askedAt: AT }],
  },
  GenerationSubmissionStarted: {
    valid: { startedAt: AT },
    invalid: [{ startedAt: 'yesterday' }],
  },
  GenerationSubmitted: {
    valid: { upstreamJobId: 'sim-123', submittedAt: AT },
    invalid: [{ upstreamJobId: '', submittedAt: AT }],
  },
  GenerationProgressed: {
    valid: { progress: 40, status: 'processing', source: 'callback', callbackEventId: 'evt-1', observedAt: AT },
    invalid: [
      { progress: 101, status: 'processing', source: 'poll', observedAt: AT },
      { progress: 10, status: 'completed', source: 'poll', observedAt: AT },
    ],
  },
  GenerationCompleted: {
    valid: { result: { hash: HASH, bytes: 2048, contentType: 'image/png' }, artifactId: ART, completedAt: AT },
    invalid: [{ result: { hash: 'x', bytes: 1, contentType: 'image/png' }, artifactId: ART, completedAt: AT }],
  },
  GenerationFailed: {
    valid: { reason: 'submit_timeout', message: 'No upstream id within the submit timeout', failedAt: AT },
    invalid: [{ reason: 'bad_luck', message: 'x', failedAt: AT }],
  },
  GenerationCharged: {
    valid: { entryId: ENTRY, amountMinor: 400, currency: 'USD', chargedAt: AT },
    invalid: [{ entryId: ENTRY, amountMinor: -1, currency: 'USD', chargedAt: AT }],
  },
  GenerationRefunded: {
    valid: { entryId: ENTRY, amountMinor: 400, currency: 'USD', reason: 'outcome_unknown', refundedAt: AT },
    invalid: [{ entryId: ENTRY, amountMinor: 400, currency: 'usd', reason: 'outcome_unknown', refundedAt: AT }],
  },
  QuoteIssued: {
    valid: { quote: QUOTE, jobId: JOB, taskId: T, callId: CALL, issuedAt: AT },
    invalid: [{ quote: { ...QUOTE, currency: 'dollars' }, jobId: JOB, taskId: T, callId: CALL, issuedAt: AT }],
  },
  QuoteApproved: {
    valid: { quoteId: QUOTE.quoteId, approvedBy: 'u1', checkpointId: CP, approvedAt: AT },
    invalid: [{ quoteId: QUOTE.quoteId, approvedBy: 'The Agent', approvedAt: AT }],
  },
  BudgetApproved: {
    valid: { budgetId: MSG2, taskId: T, amountMinor: 5000, currency: 'USD', approvedBy: 'u1', approvedAt: AT },
    invalid: [{ budgetId: MSG2, amountMinor: 50.5, currency: 'USD', approvedBy: 'u1', approvedAt: AT }],
  },
  LimitsSet: {
    valid: {
      currency: 'USD',
      perCallAutoApproveMinor: 500,
      dailyAutoApproveMinor: 2000,
      timeZone: 'Asia/Shanghai',
      setBy: 'u1',
      setAt: AT,
    },
    invalid: [
      {
        currency: 'USD',
        perCallAutoApproveMinor: -5,
        dailyAutoApproveMinor: 2000,
        timeZone: 'Asia/Shanghai',
        setBy: 'u1',
        setAt: AT,
      },
    ],
  },
  FundsReserved: {
    valid: {
      entryId: ENTRY,
      jobId: JOB,
      quoteId: QUOTE.quoteId,
      amountMinor: 400,
      currency: 'USD',
      authorization: 'auto_approved',
      day: '2026-11-30',
      reservedAt: AT,
      expiresAt: '2026-11-30T09:00:00.000Z',
    },
    invalid: [
      {
        entryId: ENTRY,
        jobId: JOB,
        quoteId: QUOTE.quoteId,
        amountMinor: 400,
        currency: 'USD',
        authorization: 'the_model_said_so',
        day: '30/11/2026',
        reservedAt: AT,
        expiresAt: AT,
      },
    ],
  },
  ReservationReleased: {
    valid: { entryId: ENTRY, jobId: JOB, amountMinor: 400, currency: 'USD', reason: 'expired', releasedAt: AT },
    invalid: [{ entryId: ENTRY, jobId: JOB, amountMinor: 400, currency: 'USD', reason: 'whim', releasedAt: AT }],
  },
  JobCharged: {
    valid: { entryId: ENTRY, jobId: JOB, amountMinor: 400, currency: 'USD', chargedAt: AT },
    invalid: [{ entryId: 'e1', jobId: JOB, amountMinor: 400, currency: 'USD', chargedAt: AT }],
  },
  JobRefunded: {
    valid: { entryId: ENTRY, jobId: JOB, amountMinor: 400, currency: 'USD', reason: 'upstream_failed', refundedAt: AT },
    invalid: [{ entryId: ENTRY, jobId: JOB, amountMinor: 400, currency: 'USD', refundedAt: AT }],
  },
  OperatorActionRecorded: {
    valid: {
      actionId: ENTRY,
      action: 'workspace_imported',
      operator: { userId: 'ops', tokenId: 'tok_1', tokenName: 'support' },
      targetWorkspaceId: 'acme',
      via: { tool: 'cli', command: 'import' },
      outcome: 'completed',
      details: { streams: 12, events: 340, blobs: 4 },
      recordedAt: AT,
    },
    invalid: [
      {
        actionId: ENTRY,
        action: 'workspace_deleted',
        operator: { userId: 'ops', tokenId: 'tok_1', tokenName: 'support' },
        via: { tool: 'cli', command: 'import' },
        outcome: 'completed',
        details: {},
        recordedAt: AT,
      },
    ],
  },
};
