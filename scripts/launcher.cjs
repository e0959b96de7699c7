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
// Set by the build for servers whose embedded system keeps SQLite files; '' for the others.
const SQLITE_SYSTEM = '__SQLITE_SYSTEM__';

/**
 * Why: the embedded systems open SQLite on their first request, so a missing driver would surface as a
 * failed tool call long after start-up. A server that needs it and cannot have it says so at once, naming
 * the fix. Not checked for --help/--version, nor with a remote system (then no SQLite is opened).
 */
function sqliteProblem() {
  const argv = process.argv.slice(2);
  if (argv.some((a) => ['--help', '-h', '--version', '-v'].includes(a))) return undefined;
  if (argv.some((a) => a === '--api-url' || a.startsWith('--api-url='))) return undefined;
  if (process.env[`${SQLITE_SYSTEM}_API_URL`]) return undefined;
  if (process.env.CODE_CLUSTER_SQLITE_DRIVER !== 'better-sqlite3') {
    try {
      if (process.getBuiltinModule?.('node:sqlite')) return undefined;
    } catch {
      // Older runtimes: fall through to better-sqlite3.
    }
  }
  try {
    const Database = createRequire(__filename)('better-sqlite3');
    new Database(':memory:').close();
    return undefined;
  } catch (error) {
    return String(error?.message ?? error).split('\n')[0];
  }
}

if (SQLITE_SYSTEM) {
  const problem = sqliteProblem();
  if (problem !== undefined) {
    process.stderr.write(
      `${NAME}: cannot start: no SQLite driver. Node ${process.version} has no node:sqlite (Node >= 22.13 has it) and better-sqlite3 did not load: ${problem}\n` +
        `${NAME}: fix: run it on Node 22.13 or newer, or install better-sqlite3 beside it (npm install better-sqlite3), or use a remote system (--api-url)\n`,
    );
    process.exit(1);
  }
}

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
