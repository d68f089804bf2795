import { inflateSync } from 'node:zlib';
import {
  buildGltf,
  crc32,
  encodeGif,
  encodePng,
  inspectPng,
  lzwEncode,
  renderPromptGif,
  renderPromptPng,
  renderPromptWav,
} from '.';

/** A reference LZW decoder written from the GIF89a spec, to check the encoder round-trips. */
function lzwDecode(data: Buffer, minCodeSize: number): number[] {
  const clear = 1 << minCodeSize;
  const eoi = clear + 1;
  let codeSize = minCodeSize + 1;
  let dict: number[][] = [];
  const reset = () => {
    dict = [];
    for (let i = 0; i < clear; i++) dict.push([i]);
    dict.push([], []);
    codeSize = minCodeSize + 1;
  };
  reset();
  const out: number[] = [];
  let bitPos = 0;
  let prev: number[] | null = null;
  for (;;) {
    let code = 0;
    for (let b = 0; b < codeSize; b++, bitPos++) {
      if (bitPos >> 3 >= data.length) throw new Error('LZW stream ended without an end-of-information code');
      code |= ((data[bitPos >> 3] >> (bitPos & 7)) & 1) << b;
    }
    if (code === clear) {
      reset();
      prev = null;
      continue;
    }
    if (code === eoi) break;
    let entry: number[];
    if (code < dict.length) entry = dict[code];
    else if (code === dict.length && prev) entry = [...prev, prev[0]];
    else throw new Error(`bad LZW code ${code}`);
    out.push(...entry);
    if (prev && dict.length < 4096) dict.push([...prev, entry[0]]);
    prev = entry;
    if (dict.length === 1 << codeSize && codeSize < 12) codeSize++;
  }
  return out;
}

/** Walks a GIF89a block by block; returns the frames' decoded indices. */
function parseGif(bytes: Buffer) {
  expect(bytes.subarray(0, 6).toString('latin1')).toBe('GIF89a');
  const width = bytes.readUInt16LE(6);
  const height = bytes.readUInt16LE(8);
  const packed = bytes[10];
  let offset = 13;
  if (packed & 0x80) offset += 3 * (1 << ((packed & 7) + 1));
  const frames: number[][] = [];
  let sawLoop = false;
  for (;;) {
    const introducer = bytes[offset++];
    if (introducer === 0x3b) break;
    if (introducer === 0x21) {
      const label = bytes[offset++];
      const start = offset;
      while (bytes[offset] !== 0) offset += bytes[offset] + 1;
      if (label === 0xff && bytes.subarray(start + 1, start + 12).toString('latin1') === 'NETSCAPE2.0') sawLoop = true;
      offset++;
      continue;
    }
    expect(introducer).toBe(0x2c);
    const w = bytes.readUInt16LE(offset + 4);
    const h = bytes.readUInt16LE(offset + 6);
    offset += 9;
    const minCodeSize = bytes[offset++];
    const parts: Buffer[] = [];
    while (bytes[offset] !== 0) {
      parts.push(bytes.subarray(offset + 1, offset + 1 + bytes[offset]));
      offset += bytes[offset] + 1;
    }
    offset++;
    const indices = lzwDecode(Buffer.concat(parts), minCodeSize);
    expect(indices).toHaveLength(w * h);
    frames.push(indices);
  }
  expect(offset).toBe(bytes.length);
  return { width, height, frames, sawLoop };
}

describe('simulated media encoders', () => {
  describe('crc32', () => {
    it('matches the well-known check value of "123456789"', () => {
      expect(crc32(Buffer.from('123456789'))).toBe(0xcbf43926);
    });
  });

  describe('PNG', () => {
    it('starts with the PNG signature, has IHDR/IDAT/IEND with valid CRCs and the pixels it was given', () => {
      const rgb = new Uint8Array([255, 0, 0, 0, 255, 0, 0, 0, 255, 10, 20, 30]);
      const png = encodePng(2, 2, rgb);
      const info = inspectPng(png);
      expect(info.signatureValid).toBe(true);
      expect(info.chunks.map((c) => c.type)).toEqual(['IHDR', 'IDAT', 'IEND']);
      expect(info.chunks.every((c) => c.crcValid)).toBe(true);
      expect([info.width, info.height]).toEqual([2, 2]);
      const ihdr = info.chunks[0].data;
      expect([ihdr[8], ihdr[9], ihdr[10], ihdr[11], ihdr[12]]).toEqual([8, 2, 0, 0, 0]);
      const raw = inflateSync(info.chunks[1].data);
      expect([...raw]).toEqual([0, 255, 0, 0, 0, 255, 0, 0, 0, 0, 255, 10, 20, 30]);
    });

    it('renders the same image for the same prompt and another for another prompt', () => {
      const a = renderPromptPng('a red fox', 16, 8);
      expect(renderPromptPng('a red fox', 16, 8).equals(a)).toBe(true);
      expect(renderPromptPng('a blue whale', 16, 8).equals(a)).toBe(false);
      expect(inspectPng(a)).toMatchObject({ signatureValid: true, width: 16, height: 8 });
    });

    it('notices a corrupted chunk', () => {
      const png = renderPromptPng('x', 4, 4);
      png[png.length - 20] ^= 0xff;
      expect(inspectPng(png).chunks.some((c) => !c.crcValid)).toBe(true);
    });
  });

  describe('WAV', () => {
    it('writes a RIFF/WAVE header whose sizes match the PCM data', () => {
      const wav = renderPromptWav('a bell', 0.5, 8000);
      expect(wav.subarray(0, 4).toString('latin1')).toBe('RIFF');
      expect(wav.readUInt32LE(4)).toBe(wav.length - 8);
      expect(wav.subarray(8, 16).toString('latin1')).toBe('WAVEfmt ');
      expect(wav.readUInt32LE(16)).toBe(16);
      expect(wav.readUInt16LE(20)).toBe(1);
      expect(wav.readUInt16LE(22)).toBe(1);
      expect(wav.readUInt32LE(24)).toBe(8000);
      expect(wav.readUInt32LE(28)).toBe(16000);
      expect(wav.readUInt16LE(32)).toBe(2);
      expect(wav.readUInt16LE(34)).toBe(16);
      expect(wav.subarray(36, 40).toString('latin1')).toBe('data');
      expect(wav.readUInt32LE(40)).toBe(4000 * 2);
      expect(wav.length).toBe(44 + 8000);
      const peak = Math.max(...Array.from({ length: 4000 }, (_, i) => Math.abs(wav.readInt16LE(44 + i * 2))));
      expect(peak).toBeGreaterThan(10000);
    });
  });

  describe('GIF', () => {
    it('writes GIF89a, a looping extension, every frame LZW-decodable to its indices, and the trailer', () => {
      const gif = renderPromptGif('a spinning top', 4, 20, 10);
      expect(gif[gif.length - 1]).toBe(0x3b);
      const parsed = parseGif(gif);
      expect(parsed).toMatchObject({ width: 20, height: 10, sawLoop: true });
      expect(parsed.frames).toHaveLength(4);
      expect(parsed.frames[0]).not.toEqual(parsed.frames[1]);
    });

    it('round-trips long, noisy input through the table reset at 4096 codes', () => {
      let seed = 7;
      const indices = new Uint8Array(200 * 200).map(() => {
        seed = (seed * 1103515245 + 12345) & 0x7fffffff;
        return (seed >> 16) % 256;
      });
      expect(lzwDecode(Buffer.from(lzwEncode(indices, 8)), 8)).toEqual([...indices]);
      const palette = Array.from({ length: 256 }, (_, i): [number, number, number] => [i, i, i]);
      expect(parseGif(encodeGif(200, 200, palette, [{ indices, delayCs: 5 }])).frames[0]).toEqual([...indices]);
    });

    it('round-trips runs (the code-equals-next-entry case) with a 2-colour palette', () => {
      const indices = new Uint8Array(1000).map((_, i) => (i % 97 < 60 ? 0 : 1));
      expect(lzwDecode(Buffer.from(lzwEncode(indices, 2)), 2)).toEqual([...indices]);
    });
  });

  describe('glTF', () => {
    it.each(['cube', 'tetrahedron'] as const)('builds a valid glTF 2.0 %s with an embedded buffer', (shape) => {
      const gltf = JSON.parse(JSON.stringify(buildGltf('a cube', shape)));
      expect(gltf.asset.version).toBe('2.0');
      const uri: string = gltf.buffers[0].uri;
      expect(uri.startsWith('data:application/octet-stream;base64,')).toBe(true);
      const bin = Buffer.from(uri.slice(uri.indexOf(',') + 1), 'base64');
      expect(bin.length).toBe(gltf.buffers[0].byteLength);
      const size = { 5126: 4, 5123: 2 } as Record<number, number>;
      const comps = { VEC3: 3, SCALAR: 1 } as Record<string, number>;
      for (const accessor of gltf.accessors) {
        const view = gltf.bufferViews[accessor.bufferView];
        expect(view.byteOffset + view.byteLength).toBeLessThanOrEqual(bin.length);
        expect(accessor.count * comps[accessor.type] * size[accessor.componentType]).toBe(view.byteLength);
        expect(view.byteOffset % size[accessor.componentType]).toBe(0);
      }
      const [pos, idx] = gltf.accessors;
      expect(pos.count).toBe(shape === 'cube' ? 8 : 4);
      expect(idx.count % 3).toBe(0);
      const idxView = gltf.bufferViews[idx.bufferView];
      for (let i = 0; i < idx.count; i++) expect(bin.readUInt16LE(idxView.byteOffset + i * 2)).toBeLessThan(pos.count);
      const posView = gltf.bufferViews[pos.bufferView];
      for (let i = 0; i < pos.count * 3; i++) {
        const v = bin.readFloatLE(posView.byteOffset + i * 4);
        expect(v).toBeGreaterThanOrEqual(pos.min[i % 3]);
        expect(v).toBeLessThanOrEqual(pos.max[i % 3]);
      }
      expect(gltf.meshes[0].primitives[0]).toMatchObject({ attributes: { POSITION: 0 }, indices: 1 });
    });
  });
});
