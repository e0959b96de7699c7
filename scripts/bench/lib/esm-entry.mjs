// How the anchors load the workspace's SDK and zod: they live outside any package with those
// dependencies, so the lookup is by hand, but the file loaded is the one `import '<name>/<subpath>'` would.
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const requireFromKit = createRequire(
  join(dirname(fileURLToPath(import.meta.url)), '../../../packages/mcp-kit/package.json'),
);

/** The file `import '<name>/<subpath>'` loads (the "import" condition of the package's exports map). */
export function esmEntry(name, subpath) {
  let dir = dirname(requireFromKit.resolve(subpath ? `${name}/${subpath}` : name));
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
