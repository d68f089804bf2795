import { deflateSync } from 'node:zlib';
import { crc32 } from './crc32';
import { promptDigest } from './seed';

export const PNG_SIGNATURE = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);

function chunk(type: string, data: Buffer): Buffer {
  const typeBytes = Buffer.from(type, 'latin1');
  const out = Buffer.alloc(12 + data.length);
  out.writeUInt32BE(data.length, 0);
  typeBytes.copy(out, 4);
  data.copy(out, 8);
  out.writeUInt32BE(crc32(typeBytes, data), 8 + data.length);
  return out;
}

/** An 8-bit truecolour (RGB) PNG: IHDR, one IDAT (zlib stream of filter-0 scanlines), IEND. */
export function encodePng(width: number, height: number, rgb: Uint8Array): Buffer {
  if (!Number.isInteger(width) || !Number.isInteger(height) || width < 1 || height < 1) {
    throw new RangeError(`PNG size must be positive integers, got ${width}x${height}`);
  }
  if (rgb.length !== width * height * 3) throw new RangeError('PNG pixel buffer must hold width * height * 3 bytes');
  const ihdr = Buffer.alloc(13);
  ihdr.writeUInt32BE(width, 0);
  ihdr.writeUInt32BE(height, 4);
  ihdr[8] = 8; // bit depth
  ihdr[9] = 2; // colour type: truecolour
  ihdr[10] = 0; // compression: deflate
  ihdr[11] = 0; // filter method 0
  ihdr[12] = 0; // no interlace
  const stride = width * 3;
  const raw = Buffer.alloc((stride + 1) * height);
  for (let y = 0; y < height; y++) {
    // Each scanline starts with its filter type; 0 (None) keeps the encoder trivial.
    raw[y * (stride + 1)] = 0;
    Buffer.from(rgb.buffer, rgb.byteOffset + y * stride, stride).copy(raw, y * (stride + 1) + 1);
  }
  return Buffer.concat([
    PNG_SIGNATURE,
    chunk('IHDR', ihdr),
    chunk('IDAT', deflateSync(raw)),
    chunk('IEND', Buffer.alloc(0)),
  ]);
}

/** A diagonal two-colour gradient with a checker overlay, both picked from the prompt's hash. */
export function renderPromptPng(prompt: string, width = 64, height = 64): Buffer {
  const d = promptDigest(prompt);
  const from = [d[0], d[1], d[2]];
  const to = [d[3], d[4], d[5]];
  const cell = 4 + (d[6] % 12);
  const rgb = new Uint8Array(width * height * 3);
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) {
      const t = (x + y) / Math.max(1, width + height - 2);
      const checker = (Math.floor(x / cell) + Math.floor(y / cell)) % 2 === 0 ? 1 : 0.8;
      const i = (y * width + x) * 3;
      for (let c = 0; c < 3; c++) rgb[i + c] = Math.round((from[c] * (1 - t) + to[c] * t) * checker);
    }
  }
  return encodePng(width, height, rgb);
}

export interface PngChunkInfo {
  type: string;
  length: number;
  crcValid: boolean;
  data: Buffer;
}

/** Splits a PNG into its chunks and checks each CRC: how tests and the drills check a download. */
export function inspectPng(bytes: Buffer): {
  signatureValid: boolean;
  chunks: PngChunkInfo[];
  width?: number;
  height?: number;
} {
  const signatureValid = bytes.length >= 8 && bytes.subarray(0, 8).equals(PNG_SIGNATURE);
  const chunks: PngChunkInfo[] = [];
  let offset = 8;
  while (signatureValid && offset + 12 <= bytes.length) {
    const length = bytes.readUInt32BE(offset);
    if (offset + 12 + length > bytes.length) break;
    const typeBytes = bytes.subarray(offset + 4, offset + 8);
    const data = bytes.subarray(offset + 8, offset + 8 + length);
    const crc = bytes.readUInt32BE(offset + 8 + length);
    chunks.push({ type: typeBytes.toString('latin1'), length, crcValid: crc === crc32(typeBytes, data), data });
    offset += 12 + length;
  }
  const ihdr = chunks.find((c) => c.type === 'IHDR');
  return {
    signatureValid,
    chunks,
    width: ihdr ? ihdr.data.readUInt32BE(0) : undefined,
    height: ihdr ? ihdr.data.readUInt32BE(4) : undefined,
  };
}
