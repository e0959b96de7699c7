#!/usr/bin/env node
// A bare official-SDK server as a typical user writes it: plain ESM, unbundled, McpServer +
// StdioServerTransport, one trivial tool. The SDK and zod are the workspace's own copies (the ones
// apps/satdt uses), loaded through their ESM entry points exactly as `import ... from '@modelcontextprotocol/sdk/...'`
// would; only the lookup differs, because this file lives outside any package with those dependencies.
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const here = dirname(fileURLToPath(import.meta.url));
const requireFromApp = createRequire(join(here, '../../../apps/satdt/package.json'));

/** The file `import '<name>/<subpath>'` loads (the "import" condition of the package's exports map). */
function esmEntry(name, subpath) {
  let dir = dirname(requireFromApp.resolve(subpath ? `${name}/${subpath}` : name));
  let pkg;
  for (;;) {
    try {
      pkg = JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8'));
      if (pkg.name === name) break;
    } catch {}
    const up = dirname(dir);
    if (up === dir) throw new Error(`cannot find the package root of ${name}`);
    dir = up;
  }
  const key = subpath ? `./${subpath}` : '.';
  const exact = pkg.exports[key];
  const target = exact
    ? typeof exact === 'string'
      ? exact
      : (exact.import?.default ?? exact.import ?? exact.default)
    : pkg.exports['./*'].import.replace('*', subpath);
  return pathToFileURL(join(dir, target)).href;
}

const { McpServer } = await import(esmEntry('@modelcontextprotocol/sdk', 'server/mcp.js'));
const { StdioServerTransport } = await import(esmEntry('@modelcontextprotocol/sdk', 'server/stdio.js'));
const { z } = await import(esmEntry('zod'));

const server = new McpServer({ name: 'bare-sdk', version: '0.0.0' });
server.registerTool(
  'satelite_info',
  {
    title: 'Información de un satélite',
    description: 'Datos de catálogo de un satélite.',
    inputSchema: { norad_id: z.number() },
  },
  async ({ norad_id }) => ({ content: [{ type: 'text', text: `satélite ${norad_id}: ok` }] }),
);
await server.connect(new StdioServerTransport());
