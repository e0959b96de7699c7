import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Ajv2020 } from 'ajv/dist/2020.js';
import addFormatsModule from 'ajv-formats';
import { describe, expect, it } from 'vitest';
import { NAMESPACE, registryName } from '../../../scripts/lib/identity.mjs';
import { catalog, packed } from './helpers.js';
import { appDir, repoRoot } from './paths.js';

const SCHEMA_FILE = join(repoRoot, 'registry', 'server.schema.json');
/** Pinned in registry/README.md with its source: replacing the vendored schema is a deliberate change. */
const SCHEMA_SHA256 = 'e5a888b0131dc15ec1da6d6bcf8ce7ec3727b9bac44f5ca15e847cd78837fed3';

const sha256 = (bytes: Buffer) => createHash('sha256').update(bytes).digest('hex');
const addFormats = addFormatsModule as unknown as (ajv: Ajv2020) => Ajv2020;

function validator() {
  const ajv = new Ajv2020({ strict: false, allErrors: true });
  addFormats(ajv);
  return ajv.compile(JSON.parse(readFileSync(SCHEMA_FILE, 'utf8')));
}

interface EnvironmentVariable {
  name: string;
  isSecret: boolean;
  isRequired: boolean;
  default?: string;
  choices?: string[];
  format: string;
}

interface ServerJson {
  $schema: string;
  name: string;
  version: string;
  description: string;
  packages: Array<{
    registryType: string;
    identifier: string;
    version: string;
    runtimeHint?: string;
    fileSha256?: string;
    transport: { type: string };
    environmentVariables?: EnvironmentVariable[];
  }>;
  remotes: Array<{ type: string; url: string; headers: Array<{ name: string; isSecret: boolean }> }>;
}

const entryOf = (bin: string): ServerJson => JSON.parse(readFileSync(packed(`${bin}.server.json`), 'utf8'));

it('the vendored registry schema is the pinned file', () => {
  expect(sha256(readFileSync(SCHEMA_FILE))).toBe(SCHEMA_SHA256);
  expect(readFileSync(join(repoRoot, 'registry', 'README.md'), 'utf8')).toContain(SCHEMA_SHA256);
});

it('the validator rejects what the schema forbids (a name without a namespace, a "latest" version)', () => {
  const validate = validator();
  const entry = entryOf('satdt-mcp');
  expect(validate(entry)).toBe(true);
  expect(validate({ ...entry, name: 'satdt-mcp' })).toBe(false);
  expect(validate({ ...entry, packages: [{ ...entry.packages[0], version: 'latest' }] })).toBe(false);
  expect(validate({ ...entry, description: 'x'.repeat(101) })).toBe(false);
});

describe.each(catalog.servers)('the registry entry of $bin', (server) => {
  it('validates against the official server.json schema', () => {
    const validate = validator();
    const entry = entryOf(server.bin);
    expect(validate(entry), JSON.stringify(validate.errors, null, 2)).toBe(true);
    expect(entry.$schema).toBe(
      'https://static.modelcontextprotocol.io/schemas/2025-12-11/server.schema.json',
    );
  });

  it('names the server in the namespace and carries the package’s version', () => {
    const pkg = JSON.parse(readFileSync(join(appDir(server.app), 'package.json'), 'utf8'));
    const entry = entryOf(server.bin);
    expect(entry.name).toBe(`${NAMESPACE}/${server.bin}`);
    expect(entry.name).toBe(registryName(server.bin));
    expect(entry.name).toBe(pkg.mcpName);
    expect(entry.version).toBe(pkg.version);
  });

  it('lists the npm package (npx) with one variable per setting, and the .mcpb with its sha256', () => {
    const entry = entryOf(server.bin);
    const [npm, mcpb] = entry.packages;
    expect(npm).toMatchObject({
      registryType: 'npm',
      identifier: server.package,
      version: server.version,
      runtimeHint: 'npx',
      transport: { type: 'stdio' },
    });
    const settings = server.settings.filter((s) => !('transport' in s));
    expect(npm!.environmentVariables!.map((v) => v.name)).toEqual(settings.map((s) => s.env));
    for (const variable of npm!.environmentVariables!) {
      const setting = settings.find((s) => s.env === variable.name)!;
      expect(variable.isSecret).toBe(setting.secret);
      expect(variable.isRequired).toBe(false);
      expect(variable.default).toBe('default' in setting ? String(setting.default) : undefined);
      expect(variable.choices).toEqual('choices' in setting ? setting.choices : undefined);
    }
    expect(npm!.environmentVariables!.find((v) => v.name.endsWith('_API_TOKEN'))?.isSecret).toBe(true);
    expect(npm!.environmentVariables!.find((v) => v.name === 'MCP_READ_ONLY')).toMatchObject({
      format: 'boolean',
      default: 'false',
    });
    const file = packed(`${server.bin}-${server.version}.mcpb`);
    expect(mcpb).toMatchObject({
      registryType: 'mcpb',
      version: server.version,
      transport: { type: 'stdio' },
    });
    expect(mcpb!.identifier).toMatch(new RegExp(`/${server.bin}-${server.version}\\.mcpb$`));
    expect(mcpb!.fileSha256).toBe(sha256(readFileSync(file)));
  });

  it('documents a Streamable HTTP deployment as a remote with a secret bearer token', () => {
    const [remote] = entryOf(server.bin).remotes;
    expect(remote).toMatchObject({ type: 'streamable-http', url: 'https://{host}/mcp' });
    expect(remote!.headers).toEqual([expect.objectContaining({ name: 'Authorization', isSecret: true })]);
  });
});
