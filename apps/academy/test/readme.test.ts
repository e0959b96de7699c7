import { renderToolsetsTable, renderToolsTable } from '@code-cluster/mcp-kit';
import { readmeSection } from '@code-cluster/testkit';
import { expect, it } from 'vitest';
import { tools } from '../src/tools/index.js';

it('README lists the tools of academy-mcp as their definitions say (UPDATE_README=1 regenerates)', () => {
  const table = renderToolsTable(tools);
  expect(readmeSection('tools:academy', table)).toBe(table);
});

it('README gives the tools/list size of academy-mcp per toolset as measured (UPDATE_README=1 regenerates)', () => {
  const table = renderToolsetsTable(tools);
  expect(readmeSection('toolsets:academy', table)).toBe(table);
});
