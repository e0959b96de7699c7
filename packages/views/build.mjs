#!/usr/bin/env node
// Builds each view into one self-contained HTML file (script and style inlined: no CDN, no fonts, no
// network at run time, so hosts need no CSP exceptions) and dist/index.js, which exports them as strings
// for the servers' bundles.
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';
import { feature } from 'topojson-client';

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
  {
    dir: 'ground-track',
    exportName: 'groundTrackView',
    uri: 'ui://satdt/traza-satelite.html',
    name: 'traza-satelite',
    title: 'Traza del satélite sobre el mapa',
    description:
      'Vista MCP Apps de posicion_satelite: el punto subsatélite, la traza de ±1 órbita, el día y la noche y las estaciones.',
  },
];

/**
 * Natural Earth's 110 m land (public domain, via world-atlas) as one SVG path in an equirectangular
 * 360 × 180 frame (x = longitude + 180, y = 90 − latitude), a tenth of a degree is plenty at this scale.
 */
function landPath() {
  const topology = JSON.parse(readFileSync(resolve(here, 'node_modules/world-atlas/land-110m.json'), 'utf8'));
  const land = feature(topology, topology.objects.land);
  const rings = land.features.flatMap((f) =>
    f.geometry.type === 'Polygon' ? f.geometry.coordinates : f.geometry.coordinates.flat(),
  );
  const n = (v) => Math.round(v * 10) / 10;
  return rings
    .map((ring) => `M${ring.map(([lon, lat]) => `${n(lon + 180)} ${n(90 - lat)}`).join('L')}Z`)
    .join('');
}
const define = { __LAND_PATH__: JSON.stringify(landPath()) };

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
    define,
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
