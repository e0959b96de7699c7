// The start of every bundled server bin (scripts/build-app.mjs puts the program in PROGRAM below).
//
// Why: on Node 20 a cold start spends a third of its time parsing and compiling the ~1.3 MB program. A
// string literal is scanned in a blink; the program is then compiled with a V8 code cache kept under
// $XDG_CACHE_HOME/code-cluster (keyed by program hash, Node version and architecture), so every start
// after the first skips the compile. Without a writable cache directory it simply compiles as usual.
'use strict';
const { mkdirSync, readFileSync, renameSync, writeFileSync } = require('node:fs');
const { createRequire } = require('node:module');
const { homedir } = require('node:os');
const { join } = require('node:path');
const { Script } = require('node:vm');

const PROGRAM = '__PROGRAM__';
const PROGRAM_HASH = '__PROGRAM_HASH__';
const NAME = '__NAME__';

function cacheFile() {
  if (process.env.CODE_CLUSTER_CODE_CACHE === '0') return undefined;
  const base = process.env.XDG_CACHE_HOME || join(homedir(), '.cache');
  return join(base, 'code-cluster', 'v8', `${NAME}-${PROGRAM_HASH}-${process.version}-${process.arch}.bin`);
}

const file = cacheFile();
let cachedData;
try {
  if (file) cachedData = readFileSync(file);
} catch {
  // No cache yet: compile from source this time.
}

// PROGRAM is already wrapped as a CommonJS module function (at build time: a copy here would cost 1 MB).
const script = new Script(PROGRAM, {
  filename: __filename,
  cachedData,
});

if (file && (cachedData === undefined || script.cachedDataRejected)) {
  // Written once the start-up code has run (so its lazily compiled functions are in the cache), or at
  // exit for a short-lived process; atomically, since several servers may start together.
  let written = false;
  const write = () => {
    if (written) return;
    written = true;
    try {
      mkdirSync(join(file, '..'), { recursive: true });
      const temp = `${file}.${process.pid}.tmp`;
      writeFileSync(temp, script.createCachedData());
      renameSync(temp, file);
    } catch {
      // A read-only home or a full disk only costs speed.
    }
  };
  setTimeout(write, 1_000).unref();
  process.once('exit', write);
}

const programModule = { exports: {} };
script.runInThisContext()(
  programModule.exports,
  createRequire(__filename),
  programModule,
  __filename,
  __dirname,
);
