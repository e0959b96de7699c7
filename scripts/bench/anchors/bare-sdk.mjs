#!/usr/bin/env node
// A bare official-SDK server as a typical user writes it: plain ESM, unbundled, McpServer +
// StdioServerTransport, one trivial tool. The SDK and zod are the workspace's own copies (the ones every
// app uses, pinned by the catalog), loaded through their ESM entry points exactly as
// `import ... from '@modelcontextprotocol/sdk/...'` would; only the lookup differs (lib/esm-entry.mjs).
import { esmEntry } from '../lib/esm-entry.mjs';

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
