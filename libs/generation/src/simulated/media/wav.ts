import { promptDigest } from './seed';

/** A RIFF/WAVE file of 16-bit signed little-endian mono PCM. */
export function encodeWav(samples: Int16Array, sampleRate: number): Buffer {
  const dataBytes = samples.length * 2;
  const out = Buffer.alloc(44 + dataBytes);
  out.write('RIFF', 0, 'latin1');
  out.writeUInt32LE(36 + dataBytes, 4); // everything after this field
  out.write('WAVE', 8, 'latin1');
  out.write('fmt ', 12, 'latin1');
  out.writeUInt32LE(16, 16); // PCM fmt chunk size
  out.writeUInt16LE(1, 20); // format: PCM
  out.writeUInt16LE(1, 22); // channels
  out.writeUInt32LE(sampleRate, 24);
  out.writeUInt32LE(sampleRate * 2, 28); // byte rate = rate * channels * 2
  out.writeUInt16LE(2, 32); // block align
  out.writeUInt16LE(16, 34); // bits per sample
  out.write('data', 36, 'latin1');
  out.writeUInt32LE(dataBytes, 40);
  for (let i = 0; i < samples.length; i++) out.writeInt16LE(samples[i], 44 + i * 2);
  return out;
}

/** A sine tone whose pitch comes from the prompt, faded in and out so it does not click. */
export function renderPromptWav(prompt: string, seconds = 1, sampleRate = 8000): Buffer {
  const d = promptDigest(prompt);
  const frequency = 220 + (d.readUInt16BE(0) % 660);
  const count = Math.max(1, Math.round(seconds * sampleRate));
  const fade = Math.min(count / 2, sampleRate * 0.01);
  const samples = new Int16Array(count);
  for (let i = 0; i < count; i++) {
    const envelope = Math.min(1, i / fade, (count - 1 - i) / fade);
    samples[i] = Math.round(Math.sin((2 * Math.PI * frequency * i) / sampleRate) * 0.5 * 32767 * envelope);
  }
  return encodeWav(samples, sampleRate);
}
