#!/usr/bin/env node
// `npm run generate`: rewrites what is derived from the servers' settings and tool definitions — the
// installer's catalog (packages/cli/src/catalog.json) — from the sources and the built bins. A drift test
// (packages/cli/test/drift.test.ts) fails when a committed copy differs from what this writes.
import { writeFileSync } from 'node:fs';
import { buildCatalog, CATALOG_FILE, serializeCatalog } from './lib/catalog.mjs';

writeFileSync(CATALOG_FILE, serializeCatalog(await buildCatalog()));
process.stderr.write(`wrote ${CATALOG_FILE}\n`);
