import { PALETTE, svg, type ToolResult, ViewBridge } from '../bridge.js';

interface Pase {
  aos: string;
  tca: string;
  los: string;
  elevacion_max_deg: number;
  azimut_aos_deg: number;
  azimut_los_deg: number;
  duracion_s: number;
}
interface Pases {
  norad_id: number;
  nombre: string;
  estacion: string;
  visibilidad: string;
  pases: Pase[];
}
interface Punto {
  instante: string;
  azimut_deg: number;
  elevacion_deg: number;
}
interface Trayectorias {
  estacion: { id: string; nombre: string; mascara_deg: number };
  trayectorias: Array<{ aos: string; los: string; puntos: Punto[] }>;
}

const SIZE = 360;
const C = SIZE / 2;
const R = C - 24;
const bridge = new ViewBridge('satdt-cielo-pases');
const estado = document.getElementById('estado') as HTMLElement;
const grafico = document.getElementById('grafico') as HTMLElement;
const lista = document.getElementById('lista') as HTMLOListElement;
let fijado: number | undefined;

/** Zenith at the centre, the horizon at the edge; north up, east to the right (as seen from below). */
function xy(azimutDeg: number, elevacionDeg: number): [number, number] {
  const r = (R * (90 - Math.max(0, elevacionDeg))) / 90;
  const a = (azimutDeg * Math.PI) / 180;
  return [C + r * Math.sin(a), C - r * Math.cos(a)];
}

function hora(iso: string, timeZone?: string): string {
  return new Date(iso).toLocaleString('es', {
    timeZone,
    day: '2-digit',
    month: '2-digit',
    hour: '2-digit',
    minute: '2-digit',
    hour12: false,
  });
}

function axes(plot: SVGSVGElement, mascaraDeg: number | undefined): void {
  if (mascaraDeg !== undefined && mascaraDeg > 0) {
    // The ring between the horizon and the mask: the station does not track there.
    const mask = svg('path', {
      class: 'mascara',
      'fill-rule': 'evenodd',
      d: `${circle(R)} ${circle((R * (90 - mascaraDeg)) / 90)}`,
    });
    mask.append(svg('title'));
    (mask.firstChild as SVGTitleElement).textContent = `Máscara de elevación: ${mascaraDeg}°`;
    plot.append(mask);
  }
  for (const el of [0, 30, 60]) {
    plot.append(svg('circle', { class: 'eje', cx: C, cy: C, r: (R * (90 - el)) / 90 }));
    const [x, y] = xy(22, el);
    const label = svg('text', { class: 'rotulo', x: x + 2, y: y + 11 });
    label.textContent = `${el}°`;
    plot.append(label);
  }
  for (const [az, name] of [
    [0, 'N'],
    [90, 'E'],
    [180, 'S'],
    [270, 'O'],
  ] as const) {
    const [x, y] = xy(az, 0);
    plot.append(svg('line', { class: 'eje', x1: C, y1: C, x2: x, y2: y }));
    const [lx, ly] = xy(az, -8);
    const label = svg('text', { class: 'rotulo', x: lx, y: ly + 4, 'text-anchor': 'middle' });
    label.textContent = name;
    plot.append(label);
  }
}

function circle(r: number): string {
  return `M ${C - r} ${C} a ${r} ${r} 0 1 0 ${2 * r} 0 a ${r} ${r} 0 1 0 ${-2 * r} 0 Z`;
}

function render(data: Pases, tracks: Trayectorias | undefined): void {
  const tz = bridge.context.timeZone;
  const plot = svg('svg', {
    viewBox: `0 0 ${SIZE} ${SIZE}`,
    role: 'img',
    'aria-labelledby': 'cielo-t cielo-d',
  });
  const title = svg('title', { id: 'cielo-t' });
  title.textContent = `Cielo sobre ${data.estacion}: ${data.pases.length} pases de ${data.nombre}`;
  const desc = svg('desc', { id: 'cielo-d' });
  desc.textContent = data.pases
    .map(
      (p, i) =>
        `Pase ${i + 1}: sube por el azimut ${Math.round(p.azimut_aos_deg)}°, culmina a ` +
        `${p.elevacion_max_deg.toFixed(1)}° y se pone por el azimut ${Math.round(p.azimut_los_deg)}°.`,
    )
    .join(' ');
  plot.append(title, desc);
  // Tells whoever waits on the view (a test host) that the tracks from trayectorias_pases are drawn.
  if (tracks) plot.dataset.trayectorias = String(tracks.trayectorias.length);
  axes(plot, tracks?.estacion.mascara_deg);

  data.pases.forEach((p, i) => {
    const color = PALETTE[i % PALETTE.length] as string;
    const group = svg('g', { class: 'pase', 'data-pase': i });
    const puntos = tracks?.trayectorias[i]?.puntos;
    const line = puntos
      ? puntos.map((q) => xy(q.azimut_deg, q.elevacion_deg))
      : [xy(p.azimut_aos_deg, 0), xy(p.azimut_los_deg, 0)];
    group.append(
      svg('polyline', {
        points: line.map((q) => q.join(',')).join(' '),
        fill: 'none',
        stroke: color,
        'stroke-width': 2,
      }),
    );
    const [ax, ay] = line[0] as [number, number];
    group.append(svg('circle', { cx: ax, cy: ay, r: 4, fill: color, 'data-marca': 'aos' }));
    const [lx, ly] = line[line.length - 1] as [number, number];
    group.append(
      svg('rect', { x: lx - 4, y: ly - 4, width: 8, height: 8, fill: color, 'data-marca': 'los' }),
    );
    // TCA: the sample at the highest elevation (the track's culmination), drawn as a diamond.
    const tca = puntos
      ? puntos.reduce((best, q) => (q.elevacion_deg > best.elevacion_deg ? q : best))
      : undefined;
    if (tca) {
      const [tx, ty] = xy(tca.azimut_deg, p.elevacion_max_deg);
      group.append(
        svg('path', {
          d: `M ${tx} ${ty - 6} l 6 6 l -6 6 l -6 -6 Z`,
          fill: color,
          stroke: 'var(--fondo)',
          'data-marca': 'tca',
        }),
      );
      const label = svg('text', { class: 'rotulo', x: tx + 8, y: ty + 4 });
      label.textContent = `${i + 1} · ${Math.round(p.elevacion_max_deg)}°`;
      group.append(label);
    }
    plot.append(group);
  });
  const caption = document.createElement('figcaption');
  caption.className = 'nota';
  caption.textContent =
    '● AOS  ◆ TCA (elevación máx.)  ■ LOS' +
    (tracks ? `; sombreado: bajo la máscara de ${tracks.estacion.mascara_deg}°` : '');
  grafico.replaceChildren(plot, caption);

  lista.replaceChildren(
    ...data.pases.map((p, i) => {
      const item = document.createElement('li');
      const button = document.createElement('button');
      button.type = 'button';
      button.dataset.pase = String(i);
      button.setAttribute('aria-pressed', 'false');
      const swatch = document.createElement('span');
      swatch.className = 'muestra';
      swatch.style.background = PALETTE[i % PALETTE.length] as string;
      swatch.setAttribute('aria-hidden', 'true');
      const minutes = Math.round(p.duracion_s / 60);
      const line = (text: string) => {
        const span = document.createElement('span');
        span.className = 'linea';
        span.textContent = text;
        return span;
      };
      button.append(
        swatch,
        `Pase ${i + 1}: elevación máx. ${p.elevacion_max_deg.toFixed(1)}°, ${minutes} min`,
        ...(
          [
            ['AOS', p.aos],
            ['TCA', p.tca],
            ['LOS', p.los],
          ] as const
        ).map(([name, at]) => line(`${name} ${hora(at, tz)} local · ${hora(at, 'UTC')} UTC`)),
      );
      button.addEventListener('mouseenter', () => highlight(i));
      button.addEventListener('mouseleave', () => highlight(fijado));
      button.addEventListener('focus', () => highlight(i));
      button.addEventListener('blur', () => highlight(fijado));
      button.addEventListener('click', () => {
        fijado = fijado === i ? undefined : i;
        highlight(fijado);
      });
      item.append(button);
      return item;
    }),
  );
  for (const group of plot.querySelectorAll<SVGGElement>('g.pase')) {
    const i = Number(group.dataset.pase);
    group.addEventListener('mouseenter', () => highlight(i));
    group.addEventListener('mouseleave', () => highlight(fijado));
    group.addEventListener('click', () => {
      fijado = fijado === i ? undefined : i;
      highlight(fijado);
    });
  }
}

function highlight(i: number | undefined): void {
  const plot = grafico.querySelector('svg');
  plot?.classList.toggle('atenuado', i !== undefined);
  for (const group of grafico.querySelectorAll<SVGGElement>('g.pase')) {
    group.classList.toggle('resaltado', Number(group.dataset.pase) === i);
  }
  for (const button of lista.querySelectorAll<HTMLButtonElement>('button')) {
    button.setAttribute('aria-pressed', String(Number(button.dataset.pase) === fijado));
  }
}

async function show(result: ToolResult): Promise<void> {
  const data = result.structuredContent as Pases | undefined;
  if (result.isError || !data) {
    estado.textContent = result.content?.[0]?.text ?? 'La herramienta no devolvió pases.';
    return;
  }
  (document.getElementById('titulo') as HTMLElement).textContent = `${data.nombre} sobre ${data.estacion}`;
  const zone = bridge.context.timeZone ?? Intl.DateTimeFormat().resolvedOptions().timeZone;
  if (data.pases.length === 0) {
    estado.textContent =
      data.visibilidad === 'pases'
        ? 'Ningún pase en la ventana.'
        : `Satélite geosíncrono: ${data.visibilidad} visible.`;
    render(data, undefined);
    return;
  }
  estado.textContent = `${data.pases.length} pases; hora local: ${zone}.`;
  render(data, undefined);
  if (!bridge.canCallTools()) return;
  try {
    const tracks = await bridge.callTool('trayectorias_pases', {
      norad_id: data.norad_id,
      estacion: data.estacion,
      pases: data.pases.map((p) => ({ aos: p.aos, los: p.los })),
    });
    if (!tracks.isError && tracks.structuredContent)
      render(data, tracks.structuredContent as unknown as Trayectorias);
  } catch (error) {
    estado.textContent += ` No se pudieron trazar las trayectorias: ${(error as Error).message}`;
  }
}

bridge.onToolResult = (result) => void show(result);
void bridge.connect();
