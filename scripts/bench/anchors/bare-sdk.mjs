#!/usr/bin/env node
import { dirname } from 'node:path';
import { fileURLToPath } from 'node:url';
import { esmEntry } from '../lib/esm-entry.mjs';

const _here = dirname(fileURLToPath(import.meta.url));

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
