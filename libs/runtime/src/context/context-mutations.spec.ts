import {
  existingTask,
  fold,
  taskDecider,
  type ChangeNotice,
  type ChecklistItem,
  type ExistingTask,
} from '@lomo/domain';
import { estimateTokens } from '@lomo/llm';
import type { TestMutation } from '@lomo/contracts';
import { created } from '../process/plan-turn.fixtures';
import { withheldByMutations } from './context-assembler';
import { ContextBuilder, type ContextInput } from './context-builder';

// The drills' context mutations (libs/platform/src/test-control/README.md): each leaves one part
// of the step's tail out, and nothing else changes.

const ARTIFACT = '11111111-1111-4111-8111-111111111111';
const item: ChecklistItem = {
  itemId: 'posters',
  title: 'Three posters',
  dependsOn: [],
  status: 'in_progress',
  note: null,
  evidence: null,
  needsConfirmation: false,
  reviewCheckpointId: null,
  output: null,
  linkedArtifactIds: [ARTIFACT],
  plannedBy: null,
};
const task: ExistingTask = { ...existingTask(fold(taskDecider, created)), checklist: [item] };
const notice: ChangeNotice = {
  noticeId: 'n1',
  artifactId: ARTIFACT,
  fromVersion: 2,
  toVersion: 3,
  by: { kind: 'person', userId: 'alice' },
  nodes: [],
  summary: 'the title moved to the top',
  consumedBy: { turnId: 't', step: 1 },
};

const input = (over: Partial<ContextInput> = {}): ContextInput => ({
  task,
  turnReason: 'message',
  turnHasSteps: true,
  claimed: [],
  notices: [notice],
  tools: [],
  domains: ['core'],
  loadable: [],
  profile: null,
  segments: [],
  recent: [],
  countTokens: estimateTokens,
  ...over,
});

const tailOf = (over: Partial<ContextInput> = {}) => {
  const prompt = new ContextBuilder().build(input(over));
  const tail = prompt.layers.find((l) => l.layer === 'tail')!;
  return prompt.messages
    .slice(tail.start, tail.end)
    .map((m) => m.content)
    .join('\n');
};

const withMutations = (...names: TestMutation[]) =>
  withheldByMutations({ testControl: { mutation: (name) => names.includes(name) } });

describe('context mutations of test control', () => {
  it('by default the tail carries the language, the task’s artefacts and the change notices', () => {
    const tail = tailOf();
    expect(tail).toContain(`Language of the person: ${task.language}`);
    expect(tail).toContain(`{artefacts: ${ARTIFACT}}`);
    expect(tail).toContain(`artifact ${ARTIFACT} v2→v3 (the title moved to the top; by the person alice)`);
    expect(withheldByMutations({})).toEqual({});
    expect(withMutations()).toEqual({});
  });

  it('no_language_carry: the person’s language is left out', () => {
    const tail = tailOf(withMutations('no_language_carry'));
    expect(tail).not.toContain('Language of the person');
    expect(tail).toContain(`{artefacts: ${ARTIFACT}}`);
  });

  it('no_artifact_reuse: the task’s artefacts are left out of the checklist', () => {
    const tail = tailOf(withMutations('no_artifact_reuse'));
    expect(tail).not.toContain(ARTIFACT + '}');
    expect(tail).toContain('- [in_progress] posters: Three posters');
    expect(tail).toContain('Workspace changes since you last looked');
  });

  it('no_change_notice: the person’s edit is not shown', () => {
    const tail = tailOf(withMutations('no_change_notice'));
    expect(tail).not.toContain('Workspace changes since you last looked');
    expect(tail).toContain(`Language of the person: ${task.language}`);
  });
});
