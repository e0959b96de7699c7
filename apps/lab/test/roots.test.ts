// enviar_entrega {archivo}: the server asks a real SDK client for its roots and reads the file only inside
// them, symlinks resolved; a client without roots is told to paste contenido.
import { mkdirSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { MAX_SUBMISSION_BYTES } from '@code-cluster/shared/lab';
import { ListRootsRequestSchema } from '@modelcontextprotocol/sdk/types.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { callTool, type Embedded, embeddedLab, GOOD_TRANSCRIPT, tempDataDir, textOf } from './helpers.js';

const data = tempDataDir();
const shared = join(data.dir, 'compartida');
const other = join(data.dir, 'otra');
const ROOT_URI = pathToFileURL(shared).href;
let withRoots: Embedded;
let withoutRoots: Embedded;

beforeAll(async () => {
  mkdirSync(shared);
  mkdirSync(other);
  writeFileSync(join(shared, 'entrega.jsonl'), GOOD_TRANSCRIPT);
  writeFileSync(join(other, 'fuera.jsonl'), GOOD_TRANSCRIPT);
  symlinkSync(join(other, 'fuera.jsonl'), join(shared, 'enlace.jsonl'));
  writeFileSync(join(shared, 'grande.txt'), 'x'.repeat(MAX_SUBMISSION_BYTES + 1));
  writeFileSync(join(shared, 'binario.bin'), Buffer.from([0xff, 0xfe, 0x00, 0xc3]));
  withRoots = await embeddedLab(join(data.dir, 'a'), { capabilities: { roots: {} } });
  withRoots.client.setRequestHandler(ListRootsRequestSchema, () => ({
    roots: [{ uri: ROOT_URI, name: 'compartida' }],
  }));
  withoutRoots = await embeddedLab(join(data.dir, 'b'));
});
afterAll(async () => {
  await withRoots.close();
  await withoutRoots.close();
  data.remove();
});

async function submit(lab: Embedded, args: Record<string, unknown>) {
  const started = await callTool(lab.client, 'iniciar_laboratorio', {
    laboratorio: 'mcp-handshake',
    estudiante: 'ana-garcia',
  });
  const { sesion_id } = started.structuredContent as { sesion_id: string };
  return callTool(lab.client, 'enviar_entrega', { sesion_id, ...args });
}

describe('enviar_entrega with archivo', () => {
  it('reads a file inside a root, by path and by file:// URI', async () => {
    for (const archivo of [
      join(shared, 'entrega.jsonl'),
      pathToFileURL(join(shared, 'entrega.jsonl')).href,
    ]) {
      const result = await submit(withRoots, { archivo });
      expect(result.isError).toBeFalsy();
      expect(result.structuredContent).toMatchObject({
        laboratorio: 'mcp-handshake',
        tamano_bytes: Buffer.byteLength(GOOD_TRANSCRIPT),
      });
    }
  });

  it('refuses a file outside the roots, naming them', async () => {
    const result = await submit(withRoots, { archivo: join(other, 'fuera.jsonl') });
    expect(result.isError).toBe(true);
    expect(textOf(result)).toContain(
      `está fuera de las carpetas que el cliente comparte (roots: ${ROOT_URI})`,
    );
  });

  it('refuses a symlink inside a root that points outside it', async () => {
    const result = await submit(withRoots, { archivo: join(shared, 'enlace.jsonl') });
    expect(result.isError).toBe(true);
    expect(textOf(result)).toContain('está fuera de las carpetas');
  });

  it('refuses a file over the submission cap and one that is not UTF-8 text', async () => {
    const big = await submit(withRoots, { archivo: join(shared, 'grande.txt') });
    expect(big.isError).toBe(true);
    expect(textOf(big)).toContain(
      `ocupa ${MAX_SUBMISSION_BYTES + 1} bytes y el límite es ${MAX_SUBMISSION_BYTES} bytes`,
    );
    const binary = await submit(withRoots, { archivo: join(shared, 'binario.bin') });
    expect(binary.isError).toBe(true);
    expect(textOf(binary)).toContain('no es texto UTF-8');
  });

  it('refuses a relative path and a missing file, naming the argument', async () => {
    const relative = await submit(withRoots, { archivo: 'entrega.jsonl' });
    expect(textOf(relative)).toContain("'archivo' debe ser una ruta absoluta o un URI file://");
    const missing = await submit(withRoots, { archivo: join(shared, 'no-existe.jsonl') });
    expect(textOf(missing)).toContain('No existe el archivo');
  });

  it('tells a client without roots to paste contenido', async () => {
    const result = await submit(withoutRoots, { archivo: join(shared, 'entrega.jsonl') });
    expect(result.isError).toBe(true);
    expect(textOf(result)).toContain("no declara 'roots'");
    expect(textOf(result)).toContain("Pega el trabajo en 'contenido'");
  });

  it('takes exactly one of contenido and archivo', async () => {
    for (const args of [{}, { contenido: GOOD_TRANSCRIPT, archivo: join(shared, 'entrega.jsonl') }]) {
      const result = await submit(withRoots, args);
      expect(result.isError).toBe(true);
      expect(textOf(result)).toContain("pasa exactamente uno de 'contenido' o 'archivo'");
    }
  });
});
