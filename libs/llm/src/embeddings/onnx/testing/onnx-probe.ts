/**
 * Runs the ONNX embedder outside Jest (whose sandbox gives the test its own Float32Array, which
 * onnxruntime's output tensors fail an instanceof check against) and prints what the spec checks
 * as one JSON line. Usage: node -r ./scripts/register.cjs <this file> <model directory>.
 */
import { OnnxEmbeddingProvider } from '../onnx-embedding-provider';

const dot = (a: Float32Array, b: Float32Array) => a.reduce((s, x, i) => s + x * b[i]!, 0);

async function main() {
  const provider = new OnnxEmbeddingProvider({ directory: process.argv[2]! });
  const docs = await provider.embed({
    texts: ["Our brand's main colour is teal.", 'I am vegetarian.', '我们品牌的主色是藏青色。', '我每天早上跑步。'],
  });
  const [en, zh] = await provider.embedQuery({ texts: ['Which hue represents the company?', '公司用哪种色调？'] });
  const [alone] = await provider.embed({ texts: ['teal'] });
  const [, batched] = await provider.embed({ texts: ['a much longer sentence about typefaces and layout', 'teal'] });
  console.log(
    JSON.stringify({
      name: provider.name,
      kind: provider.kind,
      dimensions: provider.dimensions,
      documentNorm: dot(docs[0]!, docs[0]!),
      queryNorms: [dot(en!, en!), dot(zh!, zh!)],
      zhQueryEnHalfZero: zh!.subarray(512).every((x) => x === 0),
      enQueryZhHalfZero: en!.subarray(0, 512).every((x) => x === 0),
      en: { paraphrase: dot(en!, docs[0]!), unrelated: dot(en!, docs[1]!) },
      zh: { paraphrase: dot(zh!, docs[2]!), unrelated: dot(zh!, docs[3]!) },
      batchedVsAlone: dot(alone!, batched!),
    }),
  );
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
