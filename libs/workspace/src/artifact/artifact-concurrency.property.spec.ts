import fc from 'fast-check';
import { ArtifactRefusedError } from '../artifact-errors';
import { artifactDecider } from './artifact-decider';
import type { ArtifactCommand } from './artifact-commands';
import type { ArtifactState, LiveArtifact } from './artifact-state';
import { planSnippets } from './document-text';
import { agent, createDocument, createFlow, fold, history } from './artifact.fixtures';

// Random interleavings of writers that read (take a base) and later submit an edit against the
// then-current state, as concurrent writers do. Whatever the order: versions rise by one per
// accepted write, exactly one writer wins per contested base, and no accepted write is lost
// (anything that overwrote it had read it first).

type Step = { writer: number; action: 'read' | 'submit'; target: number };
const steps = (writers: number, targets: number) =>
  fc.array(
    fc.record({
      writer: fc.nat(writers - 1),
      action: fc.constantFrom<'read' | 'submit'>('read', 'submit'),
      target: fc.nat(targets - 1),
    }),
    { minLength: 1, maxLength: 80 },
  );

const live = (s: ArtifactState): LiveArtifact => {
  if (s.status !== 'live') throw new Error('not live');
  return s;
};

function decideOrRefuse(
  command: ArtifactCommand,
  state: ArtifactState,
): { events: ReturnType<typeof artifactDecider.decide> } | { refused: ArtifactRefusedError } {
  try {
    return { events: artifactDecider.decide(command, state) };
  } catch (e) {
    if (!(e instanceof ArtifactRefusedError)) throw e;
    return { refused: e };
  }
}

describe('artefact decider under random interleavings of writers (property)', () => {
  it('flow node edits: refused only when a touched node moved since its base; no lost update; versions monotonic', () => {
    fc.assert(
      fc.property(steps(6, 5), (plan: Step[]) => {
        let state = fold(history(createFlow(5)));
        const bases = new Map<number, { version: number; nodeVersions: Record<string, number> }>();
        // For each node: the node version its last accepted edit produced, and what it wrote.
        const lastWrite = new Map<string, { nodeVersion: number; prompt: string }>();
        plan.forEach((step, i) => {
          const flow = live(state);
          if (flow.body.type !== 'flow') throw new Error('not a flow');
          const body = flow.body;
          if (step.action === 'read' || !bases.has(step.writer)) {
            bases.set(step.writer, {
              version: flow.version,
              nodeVersions: Object.fromEntries(Object.values(body.nodes).map((n) => [n.nodeId, n.version])),
            });
            return;
          }
          const base = bases.get(step.writer)!;
          const nodeId = `n${step.target}`;
          const prompt = `w${step.writer}-s${i}`;
          const command: ArtifactCommand = {
            type: 'EditFlowNodes',
            baseVersion: base.version,
            edits: [{ nodeId, baseNodeVersion: base.nodeVersions[nodeId], params: { prompt } }],
            by: agent(step.writer),
          };
          const outcome = decideOrRefuse(command, state);
          const unchanged = body.nodes[nodeId].version === base.nodeVersions[nodeId];
          if ('refused' in outcome) {
            expect(unchanged).toBe(false);
            expect(outcome.refused.code).toBe('FLOW_NODE_CONFLICT');
            expect(outcome.refused.details.changedNodes).toEqual([{ nodeId, version: body.nodes[nodeId].version }]);
            return;
          }
          expect(unchanged).toBe(true);
          // No lost update: the write it overwrites is the one its writer read.
          expect(lastWrite.get(nodeId)?.nodeVersion ?? 1).toBe(base.nodeVersions[nodeId]);
          const before = flow.version;
          state = outcome.events.reduce(artifactDecider.evolve, state);
          expect(live(state).version).toBe(before + 1);
          lastWrite.set(nodeId, { nodeVersion: base.nodeVersions[nodeId] + 1, prompt });
          // The writer's base moves on with its own write, as a tool result would tell it.
          base.nodeVersions[nodeId] += 1;
        });
        const final = live(state).body;
        if (final.type !== 'flow') throw new Error('not a flow');
        for (const [nodeId, w] of lastWrite) {
          expect(final.nodes[nodeId].params).toEqual({ prompt: w.prompt });
          expect(final.nodes[nodeId].version).toBe(w.nodeVersion);
        }
      }),
      { numRuns: 300, seed: 1401 },
    );
  });

  it('edits of distinct nodes from one base all apply, in any order', () => {
    fc.assert(
      fc.property(
        fc.shuffledSubarray(
          Array.from({ length: 20 }, (_, i) => i),
          { minLength: 1 },
        ),
        (order) => {
          let state = fold(history(createFlow(20)));
          for (const i of order) {
            const events = artifactDecider.decide(
              {
                type: 'EditFlowNodes',
                baseVersion: 1,
                edits: [{ nodeId: `n${i}`, baseNodeVersion: 1, params: { prompt: `by ${i}` } }],
                by: agent(i),
              },
              state,
            );
            state = events.reduce(artifactDecider.evolve, state);
          }
          const body = live(state).body;
          if (body.type !== 'flow') throw new Error('not a flow');
          expect(live(state).version).toBe(1 + order.length);
          for (const i of order) expect(body.nodes[`n${i}`].params).toEqual({ prompt: `by ${i}` });
        },
      ),
      { numRuns: 100, seed: 1402 },
    );
  });

  it('documents: exactly one whole rewrite wins per base, snippet edits on distinct slots all apply, on the same slot one wins', () => {
    const slots = 4;
    const initial = Array.from({ length: slots }, (_, k) => `[slot ${k}]`).join('\n');
    fc.assert(
      fc.property(steps(6, slots + 1), (plan: Step[]) => {
        let state = fold(history(createDocument(initial)));
        let text = initial;
        const bases = new Map<number, { version: number; text: string }>();
        const winnersPerBase = new Map<number, number>();
        plan.forEach((step, i) => {
          const doc = live(state);
          if (step.action === 'read' || !bases.has(step.writer)) {
            bases.set(step.writer, { version: doc.version, text });
            return;
          }
          const base = bases.get(step.writer)!;
          const before = doc.version;
          if (step.target === slots) {
            // A whole rewrite from the writer's base.
            const next = `${base.text}\nrewritten by w${step.writer} at ${i}`;
            const outcome = decideOrRefuse(
              { type: 'RewriteDocument', baseVersion: base.version, text: next, by: agent(step.writer) },
              state,
            );
            if ('refused' in outcome) {
              expect(before).not.toBe(base.version);
              expect(outcome.refused.code).toBe('ARTIFACT_VERSION_CONFLICT');
              expect(outcome.refused.details.currentVersion).toBe(before);
              return;
            }
            expect(before).toBe(base.version);
            winnersPerBase.set(base.version, (winnersPerBase.get(base.version) ?? 0) + 1);
            state = outcome.events.reduce(artifactDecider.evolve, state);
            text = next;
          } else {
            // A snippet edit of one slot, applied on the latest text.
            const old = `[slot ${step.target}]`;
            const edits = [{ old, new: `[slot ${step.target}] w${step.writer}@${i}` }];
            const outcome = decideOrRefuse(
              {
                type: 'EditDocumentSnippets',
                baseVersion: base.version,
                edits,
                by: agent(step.writer),
                currentText: text,
              },
              state,
            );
            const occurrences = text.split(old).length - 1;
            if ('refused' in outcome) {
              expect(occurrences).not.toBe(1);
              expect(['SNIPPET_NOT_FOUND', 'SNIPPET_NOT_UNIQUE']).toContain(outcome.refused.code);
              return;
            }
            expect(occurrences).toBe(1);
            const planned = planSnippets(text, edits);
            if (!planned.ok) throw new Error('planned edit failed');
            state = outcome.events.reduce(artifactDecider.evolve, state);
            // Nothing written before is lost: the old text survives around the replaced snippet.
            expect(planned.text.replace(edits[0].new, old)).toBe(text);
            text = planned.text;
          }
          expect(live(state).version).toBe(before + 1);
          const current = live(state).body;
          if (current.type !== 'document') throw new Error('not a document');
          expect(current.text.bytes).toBe(Buffer.byteLength(text));
        });
        for (const wins of winnersPerBase.values()) expect(wins).toBe(1);
      }),
      { numRuns: 300, seed: 1403 },
    );
  });
});
