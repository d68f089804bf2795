import { promptDigest } from './seed';

export type GltfShape = 'cube' | 'tetrahedron';

const ARRAY_BUFFER = 34962;
const ELEMENT_ARRAY_BUFFER = 34963;
const FLOAT = 5126;
const UNSIGNED_SHORT = 5123;

function geometry(shape: GltfShape): { positions: number[]; indices: number[] } {
  if (shape === 'tetrahedron') {
    return {
      positions: [1, 1, 1, -1, -1, 1, -1, 1, -1, 1, -1, -1],
      // Counter-clockwise seen from outside, as glTF's front faces are.
      indices: [0, 1, 3, 0, 2, 1, 0, 3, 2, 1, 2, 3],
    };
  }
  const positions: number[] = [];
  for (let i = 0; i < 8; i++) positions.push(i & 1 ? 0.5 : -0.5, i & 2 ? 0.5 : -0.5, i & 4 ? 0.5 : -0.5);
  return {
    positions,
    indices: [
      0,
      2,
      1,
      1,
      2,
      3, // -z
      4,
      5,
      6,
      5,
      7,
      6, // +z
      0,
      1,
      4,
      1,
      5,
      4, // -y
      2,
      6,
      3,
      3,
      6,
      7, // +y
      0,
      4,
      2,
      2,
      4,
      6, // -x
      1,
      3,
      5,
      3,
      7,
      5, // +x
    ],
  };
}

/**
 * A glTF 2.0 asset (JSON, one mesh) with its binary buffer embedded as a base64 data: URI, so
 * the artefact is a single self-contained file. Positions come first (4-byte aligned floats),
 * then the uint16 indices.
 */
export function buildGltf(prompt: string, shape: GltfShape = 'cube'): Record<string, unknown> {
  const { positions, indices } = geometry(shape);
  const posBytes = positions.length * 4;
  const idxBytes = indices.length * 2;
  const buffer = Buffer.alloc(posBytes + idxBytes);
  positions.forEach((v, i) => buffer.writeFloatLE(v, i * 4));
  indices.forEach((v, i) => buffer.writeUInt16LE(v, posBytes + i * 2));
  const min = [0, 1, 2].map((axis) => Math.min(...positions.filter((_, i) => i % 3 === axis)));
  const max = [0, 1, 2].map((axis) => Math.max(...positions.filter((_, i) => i % 3 === axis)));
  const d = promptDigest(prompt);
  return {
    asset: { version: '2.0', generator: 'lomo simulated upstream' },
    scene: 0,
    scenes: [{ nodes: [0] }],
    nodes: [{ mesh: 0, name: shape }],
    meshes: [{ primitives: [{ attributes: { POSITION: 0 }, indices: 1, material: 0, mode: 4 }] }],
    materials: [
      {
        pbrMetallicRoughness: {
          baseColorFactor: [d[0] / 255, d[1] / 255, d[2] / 255, 1],
          metallicFactor: 0,
          roughnessFactor: 0.8,
        },
      },
    ],
    buffers: [{ byteLength: buffer.length, uri: `data:application/octet-stream;base64,${buffer.toString('base64')}` }],
    bufferViews: [
      { buffer: 0, byteOffset: 0, byteLength: posBytes, target: ARRAY_BUFFER },
      { buffer: 0, byteOffset: posBytes, byteLength: idxBytes, target: ELEMENT_ARRAY_BUFFER },
    ],
    accessors: [
      { bufferView: 0, componentType: FLOAT, count: positions.length / 3, type: 'VEC3', min, max },
      { bufferView: 1, componentType: UNSIGNED_SHORT, count: indices.length, type: 'SCALAR' },
    ],
  };
}

export function renderPromptGltf(prompt: string, shape: GltfShape = 'cube'): Buffer {
  return Buffer.from(JSON.stringify(buildGltf(prompt, shape)), 'utf8');
}
