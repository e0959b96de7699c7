// Summarises a V8 .cpuprofile (node --cpu-prof): self time per package and per function, over the samples
// taken after `fromUs` (the start of the measured phase, on the same monotonic clock as
// process.hrtime). Bundled bins are mapped back to their sources through their .map file, so the bundle's
// one file splits into mcp-kit, sdk, zod, systems, …
import { existsSync, readFileSync } from 'node:fs';
import { SourceMap } from 'node:module';
import { basename } from 'node:path';
import { fileURLToPath } from 'node:url';

/** The package a source path belongs to. */
function packageOf(path) {
  if (path.startsWith('node:') || path === '') return 'node internals';
  const rules = [
    [/@modelcontextprotocol[+/]sdk/, 'sdk'],
    [/@modelcontextprotocol[+/]server-everything/, 'server-everything'],
    [/[/.]zod(@|-to-json-schema|\/)|zod-locales:/, 'zod'],
    [/packages\/mcp-kit\//, 'mcp-kit'],
    [/packages\/systems\//, 'systems'],
    [/packages\/shared\//, 'shared'],
    [/undici/, 'undici'],
    [/hono/, 'hono'],
    [/ajv|fast-uri|fast-deep-equal|json-schema-traverse/, 'ajv'],
    [/scripts\/bench\//, 'bench anchor'],
    [/node_modules/, 'other deps'],
  ];
  for (const [re, name] of rules) if (re.test(path)) return name;
  return 'app';
}

/**
 * A bundled bin is scripts/launcher.cjs with the program compiled from a string: the program's first line
 * carries the CommonJS wrapper the launcher adds, so columns there shift by its length.
 */
const WRAPPER = '(function (exports, require, module, __filename, __dirname) {'.length;

function mapperFor(url) {
  const file = url.startsWith('file:') ? fileURLToPath(url) : url;
  const mapFile = `${file}.map`;
  if (!file.endsWith('.cjs') || !existsSync(mapFile)) return undefined;
  const map = new SourceMap(JSON.parse(readFileSync(mapFile, 'utf8')));
  return (line, column) => {
    const entry = map.findEntry(line, line === 0 ? column - WRAPPER : column);
    return entry?.originalSource ? entry : undefined;
  };
}

export function summariseProfile(profile, fromUs) {
  const nodes = new Map(profile.nodes.map((n) => [n.id, n]));
  const self = new Map(); // node id → µs
  let t = profile.startTime;
  for (let i = 0; i < profile.samples.length; i++) {
    t += profile.timeDeltas[i];
    if (t < fromUs) continue;
    // A sample's time is the delta to the next one.
    const dt = profile.timeDeltas[i + 1] ?? 0;
    self.set(profile.samples[i], (self.get(profile.samples[i]) ?? 0) + dt);
  }
  const mappers = new Map();
  const byPackage = new Map();
  const byFunction = new Map();
  let total = 0;
  let idle = 0;
  for (const [id, us] of self) {
    const { functionName, url, lineNumber, columnNumber } = nodes.get(id).callFrame;
    if (functionName === '(idle)') {
      idle += us;
      continue;
    }
    total += us;
    let pkg;
    let where;
    if (functionName === '(garbage collector)') pkg = 'gc';
    else if (functionName === '(program)') pkg = 'v8 (program)';
    // Code without a script is compiled at run time (new Function): zod 4's compiled object parsers.
    else if (url === '' && lineNumber > 0) pkg = 'generated (new Function)';
    else {
      if (!mappers.has(url)) mappers.set(url, mapperFor(url));
      const original = mappers.get(url)?.(lineNumber, columnNumber);
      const source = original ? original.originalSource : url;
      pkg = packageOf(source);
      const line = original ? original.originalLine : lineNumber;
      where = `${basename(source.replace(/^file:\/\//, ''))}:${line + 1}`;
    }
    byPackage.set(pkg, (byPackage.get(pkg) ?? 0) + us);
    const name = where ? `${functionName || '(anonymous)'} ${where}` : functionName || '(anonymous)';
    const key = `${pkg}\t${name}`;
    byFunction.set(key, (byFunction.get(key) ?? 0) + us);
  }
  const sorted = (m) => [...m].sort((a, b) => b[1] - a[1]);
  return {
    totalMs: total / 1000,
    idleMs: idle / 1000,
    packages: sorted(byPackage).map(([name, us]) => ({ name, ms: us / 1000, share: us / total })),
    functions: sorted(byFunction).map(([key, us]) => {
      const [pkg, name] = key.split('\t');
      return { package: pkg, name, ms: us / 1000, share: us / total };
    }),
  };
}
