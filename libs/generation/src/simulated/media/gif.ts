import { promptDigest } from './seed';

/** One frame of palette indices (width * height), shown for `delayCs` hundredths of a second. */
export interface GifFrame {
  indices: Uint8Array;
  delayCs: number;
}

/** Packs variable-width codes least-significant bit first, as GIF's LZW stream wants. */
class BitWriter {
  private readonly bytes: number[] = [];
  private acc = 0;
  private bits = 0;

  write(code: number, size: number): void {
    this.acc |= code << this.bits;
    this.bits += size;
    while (this.bits >= 8) {
      this.bytes.push(this.acc & 0xff);
      this.acc >>>= 8;
      this.bits -= 8;
    }
  }

  finish(): number[] {
    if (this.bits > 0) this.bytes.push(this.acc & 0xff);
    this.acc = 0;
    this.bits = 0;
    return this.bytes;
  }
}

/**
 * GIF's LZW: a clear code first, codes growing from minCodeSize + 1 up to 12 bits, a clear code
 * when the 4096-entry table is full. The width grows when the next entry to create would not fit
 * in the current width: the decoder, one code behind, grows at the same point.
 */
export function lzwEncode(indices: Uint8Array, minCodeSize: number): number[] {
  const clear = 1 << minCodeSize;
  const eoi = clear + 1;
  const w = new BitWriter();
  let codeSize = minCodeSize + 1;
  let next = eoi + 1;
  let table = new Map<number, number>();
  w.write(clear, codeSize);
  if (indices.length === 0) {
    w.write(eoi, codeSize);
    return w.finish();
  }
  let prefix = indices[0];
  for (let i = 1; i < indices.length; i++) {
    const k = indices[i];
    const key = (prefix << 8) | k;
    const found = table.get(key);
    if (found !== undefined) {
      prefix = found;
      continue;
    }
    w.write(prefix, codeSize);
    if (next === 4096) {
      w.write(clear, codeSize);
      next = eoi + 1;
      codeSize = minCodeSize + 1;
      table = new Map();
    } else {
      if (next >= 1 << codeSize) codeSize++;
      table.set(key, next++);
    }
    prefix = k;
  }
  w.write(prefix, codeSize);
  w.write(eoi, codeSize);
  return w.finish();
}

/** An animated GIF89a: global colour table, NETSCAPE2.0 looping, one graphic control per frame. */
export function encodeGif(
  width: number,
  height: number,
  palette: ReadonlyArray<[number, number, number]>,
  frames: ReadonlyArray<GifFrame>,
): Buffer {
  if (palette.length < 2 || palette.length > 256) throw new RangeError('A GIF palette holds 2..256 colours');
  if (frames.length === 0) throw new RangeError('A GIF needs at least one frame');
  // The colour table size is a power of two >= 2; its exponent also gives the LZW minimum code size.
  let bits = 1;
  while (1 << bits < palette.length) bits++;
  const tableSize = 1 << bits;
  const out: number[] = [];
  const u16 = (n: number) => out.push(n & 0xff, (n >> 8) & 0xff);
  out.push(...Buffer.from('GIF89a', 'latin1'));
  u16(width);
  u16(height);
  out.push(0x80 | ((bits - 1) << 4) | (bits - 1), 0, 0);
  for (let i = 0; i < tableSize; i++) out.push(...(palette[i] ?? [0, 0, 0]));
  out.push(0x21, 0xff, 0x0b, ...Buffer.from('NETSCAPE2.0', 'latin1'), 0x03, 0x01);
  u16(0); // loop forever
  out.push(0x00);
  const minCodeSize = Math.max(2, bits);
  for (const frame of frames) {
    if (frame.indices.length !== width * height) throw new RangeError('A GIF frame must hold width * height indices');
    out.push(0x21, 0xf9, 0x04, 0x04); // graphic control: disposal "do not dispose", no transparency
    u16(frame.delayCs);
    out.push(0x00, 0x00);
    out.push(0x2c);
    u16(0);
    u16(0);
    u16(width);
    u16(height);
    out.push(0x00); // no local colour table, not interlaced
    out.push(minCodeSize);
    const data = lzwEncode(frame.indices, minCodeSize);
    for (let i = 0; i < data.length; i += 255) {
      const block = data.slice(i, i + 255);
      out.push(block.length, ...block);
    }
    out.push(0x00);
  }
  out.push(0x3b);
  return Buffer.from(out);
}

/** A few frames of diagonal bands moving across, colours picked from the prompt's hash. */
export function renderPromptGif(prompt: string, frameCount = 6, width = 32, height = 32): Buffer {
  const d = promptDigest(prompt);
  const palette: Array<[number, number, number]> = [];
  for (let i = 0; i < 16; i++) {
    const t = i / 15;
    palette.push([
      Math.round(d[0] * (1 - t) + d[3] * t),
      Math.round(d[1] * (1 - t) + d[4] * t),
      Math.round(d[2] * (1 - t) + d[5] * t),
    ]);
  }
  const frames: GifFrame[] = [];
  for (let f = 0; f < frameCount; f++) {
    const indices = new Uint8Array(width * height);
    for (let y = 0; y < height; y++) {
      for (let x = 0; x < width; x++) indices[y * width + x] = (Math.floor((x + y) / 4) + f) % 16;
    }
    frames.push({ indices, delayCs: 10 });
  }
  return encodeGif(width, height, palette, frames);
}
