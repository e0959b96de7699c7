#!/usr/bin/env node
// Builds each view into one self-contained HTML file (script and style inlined: no CDN, no fonts, no
// network at run time, so hosts need no CSP exceptions) and dist/index.js, which exports them as strings
// for the servers' bundles.
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';

const here = dirname(fileURLToPath(import.meta.url));
const MAX_BYTES = 150 * 1024;

const views = [
  {
    dir: 'sky-plot',
    exportName: 'skyPlotView',
    uri: 'ui://satdt/cielo-pases.html',
    name: 'cielo-pases',
    title: 'Gráfico del cielo de los pases',
    description:
      'Vista MCP Apps de proximos_pases: los pases sobre la estación en un gráfico polar del cielo.',
  },
  {
    dir: 'terrain-map',
    exportName: 'terrainMapView',
    uri: 'ui://roverdt/mapa-terreno.html',
    name: 'mapa-terreno',
    title: 'Mapa del terreno del rover',
    description:
      'Vista MCP Apps de planificar_ruta y estado_rover: el relieve, las rocas, la arena blanda conocida, la ruta y el rover.',
  },
];

mkdirSync(resolve(here, 'dist'), { recursive: true });
const exports = [];
for (const view of views) {
  const result = await build({
    entryPoints: [resolve(here, 'src', view.dir, 'main.ts')],
    bundle: true,
    write: false,
    format: 'iife',
    platform: 'browser',
    target: 'es2022',
    minify: true,
    legalComments: 'none',
    logLevel: 'warning',
  });
  const script = result.outputFiles[0].text.replaceAll('</script', '<\\/script');
  const style = readFileSync(resolve(here, 'src/style.css'), 'utf8');
  const html = readFileSync(resolve(here, 'src', view.dir, 'index.html'), 'utf8')
    .replace('/*STYLE*/', () => style)
    .replace('/*SCRIPT*/', () => script);
  // Everything a view shows ships inside it: a reference to another origin would break under the host's CSP.
  const external = html.match(
    /(?:src|href)\s*=\s*["']?(?:https?:)?\/\/|url\(\s*["']?(?:https?:)?\/\/|@import/i,
  );
  if (external) throw new Error(`${view.dir}: the view refers to the network (${external[0]})`);
  const bytes = Buffer.byteLength(html);
  if (bytes > MAX_BYTES) throw new Error(`${view.dir}: ${bytes} bytes, over the ${MAX_BYTES}-byte budget`);
  writeFileSync(resolve(here, 'dist', `${view.name}.html`), html);
  const { dir: _dir, exportName, ...descriptor } = view;
  exports.push(`export const ${exportName} = ${JSON.stringify({ ...descriptor, html })};`);
  process.stderr.write(`built dist/${view.name}.html (${(bytes / 1024).toFixed(1)} KiB)\n`);
}
writeFileSync(resolve(here, 'dist/index.js'), `${exports.join('\n')}\n`);
