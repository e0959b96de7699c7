// Child of coldstart.mjs: loads a CommonJS bundle the way Node's loader does (read, compile the module
// wrapper, evaluate) and reports where the time goes, in ms since the process started. With
// `--code-cache <file>` the compile uses (or, on the first run, writes) a V8 code cache, which is what
// Node ≥ 22.1's module.enableCompileCache() would do.
const { readFileSync, writeFileSync } = require('node:fs');
const Module = require('node:module');
const { dirname } = require('node:path');
const vm = require('node:vm');

const bootMs = performance.now();
const file = process.argv[2];
const cacheFile = process.argv[3] === '--code-cache' ? process.argv[4] : undefined;
process.argv.splice(2, cacheFile ? 3 : 1);
const t0 = performance.now();
const source = readFileSync(file, 'utf8').replace(/^#!.*/, '');
let cachedData;
try {
  cachedData = cacheFile ? readFileSync(cacheFile) : undefined;
} catch {}
const t1 = performance.now();
const script = new vm.Script(Module.wrap(source), { filename: file, cachedData });
const t2 = performance.now();
const mod = new Module(file, module);
mod.filename = file;
mod.paths = Module._nodeModulePaths(dirname(file));
script.runInThisContext()(mod.exports, (id) => mod.require(id), mod, file, dirname(file));
const t3 = performance.now();
if (cacheFile && (!cachedData || script.cachedDataRejected))
  writeFileSync(cacheFile, script.createCachedData());
process.stderr.write(
  `PHASES ${JSON.stringify({ boot: bootMs, read: t1 - t0, compile: t2 - t1, evaluate: t3 - t2, cacheRejected: script.cachedDataRejected ?? null })}\n`,
);
