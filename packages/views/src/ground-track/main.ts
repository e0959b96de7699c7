import { svg, type ToolResult, ViewBridge } from '../bridge.js';

declare const __LAND_PATH__: string;

interface Posicion {
  norad_id: number;
  nombre: string;
  instante: string;
  latitud_deg: number;
  longitud_deg: number;
  altitud_km: number;
  iluminado: boolean;
}
interface Estacion {
  id: string;
  nombre: string;
  latitud_deg: number;
  longitud_deg: number;
  mascara_deg: number;
  radio_visibilidad_deg: number;
}
interface Traza {
  periodo_min: number;
  puntos: Array<{ instante: string; latitud_deg: number; longitud_deg: number; iluminado: boolean }>;
  estaciones: Estacion[];
}

// Okabe–Ito: the track blue, the satellite vermillion, the stations bluish green.
const TRAZA = '#0072B2';
const SATELITE = '#D55E00';
const ESTACION = '#009E73';
const RAD = Math.PI / 180;

const bridge = new ViewBridge('satdt-traza-satelite');
const estado = document.getElementById('estado') as HTMLElement;
const grafico = document.getElementById('grafico') as HTMLElement;
const lista = document.getElementById('lista') as HTMLUListElement;
const leyenda = document.getElementById('leyenda') as HTMLUListElement;

/** Equirectangular: x = longitude + 180, y = 90 − latitude, in a 360 × 180 frame. */
const xy = (lat: number, lon: number) => `${(lon + 180).toFixed(2)},${(90 - lat).toFixed(2)}`;

/** The sub-solar point (a low-precision solar ephemeris: a small fraction of a degree, plenty for a map). */
export function subsolar(ms: number): { lat: number; lon: number } {
  const d = ms / 86_400_000 + 2_440_587.5 - 2_451_545;
  const g = (357.529 + 0.98560028 * d) * RAD;
  const q = 280.459 + 0.98564736 * d;
  const l = (q + 1.915 * Math.sin(g) + 0.02 * Math.sin(2 * g)) * RAD;
  const e = (23.439 - 0.00000036 * d) * RAD;
  const ra = Math.atan2(Math.cos(e) * Math.sin(l), Math.cos(l)) / RAD;
  const dec = Math.asin(Math.sin(e) * Math.sin(l)) / RAD;
  const gmst = 280.46061837 + 360.98564736629 * d;
  return { lat: dec, lon: ((((ra - gmst + 180) % 360) + 360) % 360) - 180 };
}

/** Where the Sun is below the horizon: bounded by the terminator and the pole that is in winter night. */
function nightPath(ms: number): string {
  const sun = subsolar(ms);
  const dec = Math.abs(sun.lat) < 0.01 ? 0.01 : sun.lat;
  const points: string[] = [];
  for (let lon = -180; lon <= 180; lon += 2) {
    const lat = Math.atan(-Math.cos((lon - sun.lon) * RAD) / Math.tan(dec * RAD)) / RAD;
    points.push(xy(lat, lon));
  }
  const pole = dec > 0 ? -90 : 90;
  return `M${points.join('L')}L${xy(pole, 180)}L${xy(pole, -180)}Z`;
}

/** Breaks a track where it crosses the antimeridian, so no line runs across the whole map. */
function segments(points: Array<{ latitud_deg: number; longitud_deg: number }>): string[] {
  const out: string[][] = [];
  let current: string[] = [];
  points.forEach((p, i) => {
    const prev = points[i - 1];
    if (prev && Math.abs(p.longitud_deg - prev.longitud_deg) > 180) {
      out.push(current);
      current = [];
    }
    current.push(xy(p.latitud_deg, p.longitud_deg));
  });
  out.push(current);
  return out.filter((s) => s.length > 1).map((s) => s.join(' '));
}

/** A small circle on the sphere, longitudes unwrapped around its centre (drawn again 360° to each side). */
function smallCircle(lat: number, lon: number, radiusDeg: number): string {
  const points: string[] = [];
  const [p1, l1, r] = [lat * RAD, lon * RAD, radiusDeg * RAD];
  for (let b = 0; b <= 360; b += 4) {
    const br = b * RAD;
    const p2 = Math.asin(Math.sin(p1) * Math.cos(r) + Math.cos(p1) * Math.sin(r) * Math.cos(br));
    const l2 =
      l1 + Math.atan2(Math.sin(br) * Math.sin(r) * Math.cos(p1), Math.cos(r) - Math.sin(p1) * Math.sin(p2));
    points.push(xy(p2 / RAD, l2 / RAD));
  }
  return `M${points.join('L')}Z`;
}

function centralAngle(a: { lat: number; lon: number }, b: { lat: number; lon: number }): number {
  const c =
    Math.sin(a.lat * RAD) * Math.sin(b.lat * RAD) +
    Math.cos(a.lat * RAD) * Math.cos(b.lat * RAD) * Math.cos((a.lon - b.lon) * RAD);
  return Math.acos(Math.min(1, Math.max(-1, c))) / RAD;
}

function render(p: Posicion, traza: Traza | undefined): void {
  const at = Date.parse(p.instante);
  const plot = svg('svg', { viewBox: '0 0 360 180', role: 'img', 'aria-labelledby': 'mundo-t' });
  const title = svg('title', { id: 'mundo-t' });
  const hh = new Date(at).toISOString().slice(11, 16);
  title.textContent =
    `Mapa del mundo: ${p.nombre} sobre latitud ${p.latitud_deg.toFixed(1)}°, longitud ${p.longitud_deg.toFixed(1)}° ` +
    `a las ${hh} UTC, ${p.iluminado ? 'iluminado' : 'en eclipse'}` +
    (traza
      ? `; traza de una órbita antes y una después (${traza.periodo_min.toFixed(0)} min cada una)`
      : '') +
    '; zona sombreada: noche.';
  plot.append(title);
  plot.append(svg('rect', { class: 'agua', x: 0, y: 0, width: 360, height: 180 }));
  plot.append(svg('path', { class: 'tierra', d: __LAND_PATH__, 'fill-rule': 'evenodd' }));
  for (let lon = -150; lon < 180; lon += 30) {
    plot.append(svg('line', { class: 'reticula', x1: lon + 180, y1: 0, x2: lon + 180, y2: 180 }));
  }
  for (let lat = -60; lat <= 60; lat += 30) {
    plot.append(svg('line', { class: 'reticula', x1: 0, y1: 90 - lat, x2: 360, y2: 90 - lat }));
  }
  plot.append(svg('path', { class: 'noche', d: nightPath(at) }));

  const here = { lat: p.latitud_deg, lon: p.longitud_deg };
  for (const s of traza?.estaciones ?? []) {
    const group = svg('g', { class: 'estacion', 'data-estacion': s.id });
    const circle = smallCircle(s.latitud_deg, s.longitud_deg, s.radio_visibilidad_deg);
    for (const dx of [-360, 0, 360]) {
      group.append(
        svg('path', {
          class: 'visibilidad',
          d: circle,
          transform: `translate(${dx} 0)`,
          fill: ESTACION,
          'fill-opacity': 0.12,
          stroke: ESTACION,
          'stroke-width': 0.6,
          'stroke-dasharray': '2 1',
        }),
      );
    }
    const [sx, sy] = xy(s.latitud_deg, s.longitud_deg).split(',').map(Number) as [number, number];
    group.append(
      svg('rect', {
        x: sx - 1.6,
        y: sy - 1.6,
        width: 3.2,
        height: 3.2,
        fill: ESTACION,
        stroke: '#fff',
        'stroke-width': 0.4,
      }),
    );
    const label = svg('text', { class: 'rotulo-mapa', x: sx + 2.5, y: sy + 1.2 });
    label.textContent = s.id;
    group.append(label);
    plot.append(group);
  }

  if (traza) {
    const now = traza.puntos.findIndex((q) => Date.parse(q.instante) >= at);
    const split = now < 0 ? traza.puntos.length : now;
    const before = [
      ...traza.puntos.slice(0, split),
      { latitud_deg: p.latitud_deg, longitud_deg: p.longitud_deg },
    ];
    const after = [
      { latitud_deg: p.latitud_deg, longitud_deg: p.longitud_deg },
      ...traza.puntos.slice(split),
    ];
    for (const [part, points] of [
      ['antes', before],
      ['despues', after],
    ] as const) {
      for (const line of segments(points)) {
        plot.append(
          svg('polyline', {
            class: 'traza',
            'data-parte': part,
            points: line,
            fill: 'none',
            stroke: TRAZA,
            'stroke-width': part === 'antes' ? 0.8 : 1.2,
            ...(part === 'antes' ? { 'stroke-dasharray': '2 1.5' } : {}),
          }),
        );
      }
    }
  }
  const [px, py] = xy(p.latitud_deg, p.longitud_deg).split(',').map(Number) as [number, number];
  plot.append(
    svg('circle', {
      cx: px,
      cy: py,
      r: 3,
      fill: SATELITE,
      stroke: '#fff',
      'stroke-width': 0.8,
      'data-marca': 'satelite',
    }),
  );
  grafico.replaceChildren(plot);

  leyenda.replaceChildren(
    ...[
      [
        SATELITE,
        `${p.nombre} a las ${hh} UTC (${p.iluminado ? 'iluminado' : 'en eclipse'}), ${p.altitud_km.toFixed(0)} km`,
      ],
      [TRAZA, 'traza: discontinua la órbita pasada, continua la siguiente'],
      [ESTACION, 'estación y su círculo de visibilidad'],
      ['#000000', 'noche'],
    ].map(([color, text]) => {
      const item = document.createElement('li');
      const swatch = document.createElement('span');
      swatch.className = 'muestra';
      swatch.style.background = color as string;
      swatch.setAttribute('aria-hidden', 'true');
      item.append(swatch, text as string);
      return item;
    }),
  );
  lista.replaceChildren(
    ...(traza?.estaciones ?? []).map((s) => {
      const item = document.createElement('li');
      const button = document.createElement('button');
      button.type = 'button';
      const inside =
        centralAngle(here, { lat: s.latitud_deg, lon: s.longitud_deg }) <= s.radio_visibilidad_deg;
      button.textContent =
        `${s.nombre} (${s.id}): máscara ${s.mascara_deg}°, visibilidad hasta ${s.radio_visibilidad_deg.toFixed(1)}° ` +
        `de arco; ${inside ? 've ahora el satélite' : 'no ve ahora el satélite'}`;
      const on = (active: boolean) => () => {
        for (const g of plot.querySelectorAll<SVGGElement>('g.estacion')) {
          g.classList.toggle('resaltado', active && g.dataset.estacion === s.id);
        }
      };
      button.addEventListener('mouseenter', on(true));
      button.addEventListener('focus', on(true));
      button.addEventListener('mouseleave', on(false));
      button.addEventListener('blur', on(false));
      item.append(button);
      return item;
    }),
  );
}

async function show(result: ToolResult): Promise<void> {
  const p = result.structuredContent as Posicion | undefined;
  if (result.isError || !p) {
    estado.textContent = result.content?.[0]?.text ?? 'La herramienta no devolvió una posición.';
    return;
  }
  (document.getElementById('titulo') as HTMLElement).textContent = `${p.nombre} sobre el mapa`;
  render(p, undefined);
  estado.textContent = `${p.nombre}: latitud ${p.latitud_deg.toFixed(2)}°, longitud ${p.longitud_deg.toFixed(2)}°.`;
  if (!bridge.canCallTools()) return;
  try {
    const answer = await bridge.callTool('traza_orbital', { norad_id: p.norad_id, instante: p.instante });
    if (answer.isError || !answer.structuredContent) return;
    render(p, answer.structuredContent as unknown as Traza);
    grafico.dataset.traza = 'si';
  } catch (error) {
    estado.textContent += ` No se pudo trazar la órbita: ${(error as Error).message}`;
  }
}

bridge.onToolResult = (result) => void show(result);
void bridge.connect();
