import { readFile, realpath, stat } from 'node:fs/promises';
import { isAbsolute, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Root } from '@modelcontextprotocol/sdk/types.js';
import { DomainError } from './protocol/errors.js';

/**
 * Reads a text file the client pointed at, only if it lies inside one of the client's roots once every
 * symlink is resolved (a link inside a root that points outside it is outside). `argument` names the tool
 * argument in every refusal; `maxBytes` bounds what is read.
 */
export async function readTextInRoots(
  target: string,
  roots: readonly Root[],
  options: { argument: string; maxBytes: number },
): Promise<{ path: string; text: string }> {
  const { argument, maxBytes } = options;
  let path: string;
  try {
    path = target.startsWith('file:') ? fileURLToPath(target) : target;
  } catch {
    throw new DomainError(`'${argument}' no es un URI file:// válido: '${target}'.`);
  }
  if (!isAbsolute(path)) {
    throw new DomainError(
      `'${argument}' debe ser una ruta absoluta o un URI file://; se recibió '${target}'.`,
    );
  }
  const real = await realpath(path).catch(() => {
    throw new DomainError(`No existe el archivo '${target}' ('${argument}').`);
  });
  const folders = (
    await Promise.all(
      roots
        .filter((root) => root.uri.startsWith('file:'))
        .map((root) => realpath(fileURLToPath(root.uri)).catch(() => undefined)),
    )
  ).filter((folder): folder is string => folder !== undefined);
  const inside = folders.some(
    (folder) => real === folder || real.startsWith(folder.endsWith(sep) ? folder : folder + sep),
  );
  if (!inside) {
    const named = roots.map((root) => root.uri).join(', ') || 'ninguna';
    throw new DomainError(
      `'${argument}' (${target}) está fuera de las carpetas que el cliente comparte (roots: ${named}).`,
    );
  }
  const info = await stat(real);
  if (!info.isFile()) throw new DomainError(`'${argument}' (${target}) no es un archivo.`);
  if (info.size > maxBytes) {
    throw new DomainError(
      `'${argument}' (${target}) ocupa ${info.size} bytes y el límite es ${maxBytes} bytes.`,
    );
  }
  const bytes = await readFile(real);
  try {
    return { path: real, text: new TextDecoder('utf-8', { fatal: true }).decode(bytes) };
  } catch {
    throw new DomainError(`'${argument}' (${target}) no es texto UTF-8.`);
  }
}
