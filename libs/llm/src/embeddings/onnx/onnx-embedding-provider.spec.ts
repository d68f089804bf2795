import { execFileSync } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ConfigError } from '@lomo/contracts';
import { ModelUnavailableError } from '../../model-errors';
import { createEmbeddingProvider } from '../create-embedding-provider';
import { OnnxEmbeddingProvider, onnxModelsPresent } from './onnx-embedding-provider';
import { ONNX_MODELS } from './onnx-models';

const MODELS = process.env.LOMO_EMBEDDING_MODEL_DIR ?? join(__dirname, '../../../../../.models');

describe('OnnxEmbeddingProvider without its files', () => {
  it('fails at construction naming the variable and the fetch command', () => {
    const empty = mkdtempSync(join(tmpdir(), 'onnx-'));
    expect(() => new OnnxEmbeddingProvider({ directory: empty })).toThrow(ConfigError);
    expect(() => createEmbeddingProvider({ provider: 'onnx', modelDirectory: empty })).toThrow(
      /LOMO_EMBEDDING_MODEL_DIR has no bge-small-zh-v1.5-q.onnx \(run npm run models:fetch\)/,
    );
    expect(() =>
      createEmbeddingProvider({ provider: 'onnx', modelDirectory: empty, onnxModel: 'xx' as never }),
    ).toThrow(/LOMO_EMBEDDING_ONNX_MODEL must be zh, en or bilingual/);
  });

  it('translates a model that does not load into a retriable MODEL_UNAVAILABLE', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'onnx-'));
    writeFileSync(join(dir, ONNX_MODELS.en.onnxFile), 'not an onnx file');
    writeFileSync(join(dir, ONNX_MODELS.en.tokenizerFile), '{}');
    const provider = new OnnxEmbeddingProvider({ directory: dir, model: 'en' });
    const error = await provider.embed({ texts: ['hello'] }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ModelUnavailableError);
    expect(error).toMatchObject({ code: 'MODEL_UNAVAILABLE', retriable: true });
  });
});

// The models are fetched (npm run models:fetch; CI does it before npm test), never committed.
const withModels = onnxModelsPresent(MODELS) ? describe : describe.skip;

withModels('OnnxEmbeddingProvider with the fetched bge-small models (in a child process)', () => {
  let probe: {
    name: string;
    kind: string;
    dimensions: number;
    documentNorm: number;
    queryNorms: number[];
    zhQueryEnHalfZero: boolean;
    enQueryZhHalfZero: boolean;
    en: { paraphrase: number; unrelated: number };
    zh: { paraphrase: number; unrelated: number };
    batchedVsAlone: number;
  };

  beforeAll(() => {
    const root = join(__dirname, '../../../../..');
    const out = execFileSync(
      process.execPath,
      ['-r', join(root, 'scripts/register.cjs'), join(__dirname, 'testing/onnx-probe.ts'), MODELS],
      { cwd: root, encoding: 'utf8', timeout: 60_000 },
    );
    probe = JSON.parse(out.trim().split('\n').pop()!) as typeof probe;
  }, 70_000);

  it('embeds documents in both spaces and a query in its language only', () => {
    expect(probe).toMatchObject({
      name: 'onnx:bge-small-zh-v1.5-q+bge-small-en-v1.5-q',
      kind: 'semantic',
      dimensions: 896,
      zhQueryEnHalfZero: true,
      enQueryZhHalfZero: true,
    });
    expect(probe.documentNorm).toBeCloseTo(1, 4);
    for (const norm of probe.queryNorms) expect(norm).toBeCloseTo(1, 4);
  });

  it('puts a paraphrase nearer than an unrelated fact, in English and in Chinese', () => {
    expect(probe.en.paraphrase).toBeGreaterThan(probe.en.unrelated);
    expect(probe.zh.paraphrase).toBeGreaterThan(probe.zh.unrelated);
  });

  it('gives a text the same vector whatever else is embedded in the same call', () => {
    expect(probe.batchedVsAlone).toBeCloseTo(1, 5);
  });
});
