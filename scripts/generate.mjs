#!/usr/bin/env node
// `npm run generate`: rewrites what is committed and derived from the servers' settings and tool
// definitions — the installer's catalog (packages/cli/src/catalog.json) and the README's install section —
// from the sources and the built bins (build first). The .mcpb manifests and registry entries are derived
// at `npm run pack` time. A drift test (packages/cli/test/drift.test.ts) fails when a committed copy
// differs from what this writes.
import { writeFileSync } from 'node:fs';
import { readmeSection } from '../packages/testkit/dist/readme.js';
import { buildCatalog, CATALOG_FILE, serializeCatalog } from './lib/catalog.mjs';
import { renderInstallSection } from './lib/readme-install.mjs';

const catalog = await buildCatalog();
writeFileSync(CATALOG_FILE, serializeCatalog(catalog));
process.env.UPDATE_README = '1';
readmeSection('install', renderInstallSection(catalog));
process.stderr.write(`wrote ${CATALOG_FILE} and the install section of README.md\n`);
