import { renderToolsetsTable, renderToolsTable } from '@code-cluster/mcp-kit';
import { readmeSection } from '@code-cluster/testkit';
import { expect, it } from 'vitest';
import { toolsFor } from '../src/tools/index.js';

it('README lists the tools of groundstation-mcp as their definitions say (UPDATE_README=1 regenerates)', () => {
  const table = renderToolsTable(toolsFor('operador'));
  expect(readmeSection('tools:groundstation', table)).toBe(table);
});

it('README gives the tools/list size of groundstation-mcp per toolset as measured (UPDATE_README=1 regenerates)', () => {
  const table = renderToolsetsTable(toolsFor('operador'));
  expect(readmeSection('toolsets:groundstation', table)).toBe(table);
});
