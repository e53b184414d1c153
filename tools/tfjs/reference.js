// Runs a TensorFlow.js graph model (model.json + weight shards) the way its authors' runtime does,
// for `htp-perception model import`'s conversion check: TensorFlow.js' own graph executor and its
// WebAssembly backend (XNNPACK kernels; `--backend cpu` for its plain JavaScript kernels, 30-40x
// slower, which agree with it to ~3e-6 on NanoDet). Offline: the .wasm files come with the package.
//
//   node reference.js MODEL_JSON FEEDS_DIR OUT_DIR [--backend wasm|cpu]
//
// FEEDS_DIR/feeds.json: {dtype: 'float32'|'int32', shape, count}; FEEDS_DIR/<i>.bin: input i's raw
// values. Writes OUT_DIR/<i>.<k>.bin (output k of input i, float32, the model's output order) and
// OUT_DIR/reference.json: {tfjs, backend, outputs: [{name, shape}], msPerImage}.
'use strict';
const fs = require('node:fs');
const path = require('node:path');
const tf = require('@tensorflow/tfjs-core');
require('@tensorflow/tfjs-backend-cpu');
require('@tensorflow/tfjs-backend-wasm');
const { loadGraphModel } = require('@tensorflow/tfjs-converter');

function typed(raw, dtype) {
  const copy = raw.buffer.slice(raw.byteOffset, raw.byteOffset + raw.byteLength);
  return dtype === 'int32' ? new Int32Array(copy) : new Float32Array(copy);
}

async function main() {
  const args = process.argv.slice(2);
  const b = args.indexOf('--backend');
  const backend = b >= 0 ? args.splice(b, 2)[1] : 'wasm';
  const [file, feedsDir, outDir] = args;
  if (!file || !feedsDir || !outDir || !['wasm', 'cpu'].includes(backend)) {
    throw new Error('usage: node reference.js MODEL_JSON FEEDS_DIR OUT_DIR [--backend wasm|cpu]');
  }
  if (!(await tf.setBackend(backend))) throw new Error(`TensorFlow.js backend ${backend} did not start`);
  await tf.ready();
  const json = JSON.parse(fs.readFileSync(file, 'utf8'));
  const dir = path.dirname(file);
  // The shards in manifest order are one weight buffer; the specs say where each tensor starts.
  const weights = Buffer.concat(
    json.weightsManifest.flatMap((g) => g.paths.map((p) => fs.readFileSync(path.join(dir, p)))),
  );
  const model = await loadGraphModel({
    load: async () => ({
      modelTopology: json.modelTopology,
      weightSpecs: json.weightsManifest.flatMap((g) => g.weights),
      weightData: weights.buffer.slice(weights.byteOffset, weights.byteOffset + weights.byteLength),
      format: json.format,
      generatedBy: json.generatedBy,
      convertedBy: json.convertedBy,
      signature: json.signature,
      userDefinedMetadata: json.userDefinedMetadata,
    }),
  });
  const feeds = JSON.parse(fs.readFileSync(path.join(feedsDir, 'feeds.json'), 'utf8'));
  const ms = [];
  let shapes = [];
  for (let i = 0; i < feeds.count; i++) {
    const input = tf.tensor(typed(fs.readFileSync(path.join(feedsDir, `${i}.bin`)), feeds.dtype), feeds.shape, feeds.dtype);
    const t0 = process.hrtime.bigint();
    const result = model.execute(input);
    const outputs = Array.isArray(result) ? result : [result];
    const values = outputs.map((t) => t.dataSync());
    ms.push(Number(process.hrtime.bigint() - t0) / 1e6);
    shapes = outputs.map((t) => t.shape);
    values.forEach((v, k) => {
      const f32 = v instanceof Float32Array ? v : Float32Array.from(v);
      fs.writeFileSync(path.join(outDir, `${i}.${k}.bin`), Buffer.from(f32.buffer, f32.byteOffset, f32.byteLength));
    });
    tf.dispose([input, ...outputs]);
  }
  ms.sort((x, y) => x - y);
  fs.writeFileSync(
    path.join(outDir, 'reference.json'),
    JSON.stringify({
      tfjs: tf.version_core,
      backend: tf.getBackend(),
      outputs: model.outputs.map((o, k) => ({ name: o.name, shape: shapes[k] })),
      msPerImage: ms.length ? ms[Math.floor(ms.length / 2)] : 0,
    }),
  );
}

main().catch((e) => {
  process.stderr.write(`reference.js: ${e && e.message ? e.message : String(e)}\n`);
  process.exit(1);
});
