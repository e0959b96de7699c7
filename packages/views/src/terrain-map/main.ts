import { svg, type ToolResult, ViewBridge } from '../bridge.js';

interface Celda {
  x: number;
  y: number;
}
interface Terreno {
  rover_id: string;
  ancho: number;
  alto: number;
  elevacion_min_m: number;
  elevacion_max_m: number;
  elevacion_u8: string;
  rocas: number[];
  arena_blanda: Celda[];
  posicion: Celda & { rumbo_deg: number };
  ruta_reciente: { ruta_id: string; estado: string; celdas: Celda[] } | null;
}
interface Ruta {
  ruta_id: string;
  rover_id: string;
  estado: string;
  origen: Celda;
  tramos: Array<{ hasta: Celda; distancia_m: number }>;
}

// Colour-blind-safe (Okabe–Ito) marks over a grey relief: rocks nearly black, soft sand orange, the route
// blue with a white halo, the rover vermillion.
const ROCA = [26, 26, 26];
const ARENA = [230, 159, 0];
const RUTA = '#0072B2';
const ROVER = '#D55E00';

const bridge = new ViewBridge('roverdt-mapa-terreno');
const estado = document.getElementById('estado') as HTMLElement;
const grafico = document.getElementById('grafico') as HTMLElement;
const canvas = document.getElementById('relieve') as HTMLCanvasElement;
const lista = document.getElementById('lista') as HTMLOListElement;
const leyenda = document.getElementById('leyenda') as HTMLUListElement;

/** Hillshade lit from the north-west, so slopes read as a relief; rocks and known sand painted on top. */
function paint(t: Terreno): void {
  canvas.width = t.ancho;
  canvas.height = t.alto;
  const raw = Uint8Array.from(atob(t.elevacion_u8), (c) => c.charCodeAt(0));
  const metresPerStep = (t.elevacion_max_m - t.elevacion_min_m) / 255;
  const at = (x: number, y: number) =>
    (raw[Math.min(t.alto - 1, Math.max(0, y)) * t.ancho + Math.min(t.ancho - 1, Math.max(0, x))] ?? 0) *
    metresPerStep;
  const image = new ImageData(t.ancho, t.alto);
  const light = [-Math.SQRT1_2 * 0.7, Math.SQRT1_2 * 0.7, 0.7]; // from the north-west, 45° up
  for (let y = 0; y < t.alto; y++) {
    for (let x = 0; x < t.ancho; x++) {
      const dx = (at(x + 1, y) - at(x - 1, y)) / 2;
      const dy = (at(x, y + 1) - at(x, y - 1)) / 2;
      const norm = Math.hypot(dx, dy, 1);
      const shade = Math.max(
        0,
        (-dx * (light[0] as number) - dy * (light[1] as number) + (light[2] as number)) / norm,
      );
      const height = (raw[y * t.ancho + x] ?? 0) / 255;
      const v = Math.round(60 + 150 * shade + 40 * height);
      // Canvas rows run north to south; the map's y grows north.
      const o = ((t.alto - 1 - y) * t.ancho + x) * 4;
      image.data.set([v, v - 6, v - 14, 255], o);
    }
  }
  const mark = (i: number, color: number[]) => {
    const x = i % t.ancho;
    const y = Math.floor(i / t.ancho);
    image.data.set([...color, 255], ((t.alto - 1 - y) * t.ancho + x) * 4);
  };
  for (const i of t.rocas) mark(i, ROCA);
  for (const c of t.arena_blanda) mark(c.y * t.ancho + c.x, ARENA);
  (canvas.getContext('2d') as CanvasRenderingContext2D).putImageData(image, 0, 0);
}

/** The centre of a cell in the overlay's coordinates (one unit per cell, north up). */
const centre = (t: Terreno, c: Celda): [number, number] => [c.x + 0.5, t.alto - c.y - 0.5];

function overlay(t: Terreno, ruta: Shown | undefined): void {
  const plot = svg('svg', {
    viewBox: `0 0 ${t.ancho} ${t.alto}`,
    role: 'img',
    'aria-labelledby': 'mapa-t',
  });
  const title = svg('title', { id: 'mapa-t' });
  const { x, y, rumbo_deg } = t.posicion;
  title.textContent =
    `Mapa del terreno de ${t.ancho} × ${t.alto} m (celdas de 1 m, norte arriba): ${t.rocas.length} rocas, ` +
    `${t.arena_blanda.length} celdas de arena blanda conocidas; ${t.rover_id} en (${x}, ${y}) con rumbo ` +
    `${Math.round(rumbo_deg)}°` +
    (ruta
      ? `; ruta ${ruta.id} (${ruta.estado}) de (${ruta.celdas[0]?.x}, ${ruta.celdas[0]?.y}) a ` +
        `(${ruta.celdas.at(-1)?.x}, ${ruta.celdas.at(-1)?.y}) en ${ruta.celdas.length - 1} tramos.`
      : '; sin ruta.');
  plot.append(title);
  if (ruta) {
    const points = ruta.celdas.map((c) => centre(t, c).join(',')).join(' ');
    plot.append(
      svg('polyline', {
        points,
        fill: 'none',
        stroke: '#ffffff',
        'stroke-width': 3.5,
        'stroke-linejoin': 'round',
      }),
      svg('polyline', {
        class: 'ruta',
        points,
        fill: 'none',
        stroke: RUTA,
        'stroke-width': 1.8,
        'stroke-linejoin': 'round',
        'data-ruta': ruta.id,
      }),
    );
    ruta.celdas.slice(1).forEach((c, i) => {
      const [x1, y1] = centre(t, ruta.celdas[i] as Celda);
      const [x2, y2] = centre(t, c);
      plot.append(
        svg('line', { class: 'tramo', x1, y1, x2, y2, stroke: RUTA, 'stroke-width': 0, 'data-tramo': i + 1 }),
      );
    });
    const [dx, dy] = centre(t, ruta.celdas.at(-1) as Celda);
    plot.append(
      svg('circle', {
        cx: dx,
        cy: dy,
        r: 3,
        fill: 'none',
        stroke: RUTA,
        'stroke-width': 1.5,
        'data-marca': 'destino',
      }),
    );
  }
  const [px, py] = centre(t, t.posicion);
  const rover = svg('path', {
    d: 'M 0 -6 L 4.5 5 L 0 2.5 L -4.5 5 Z',
    fill: ROVER,
    stroke: '#ffffff',
    'stroke-width': 1,
    transform: `translate(${px} ${py}) rotate(${rumbo_deg})`,
    'data-marca': 'rover',
  });
  plot.append(rover);
  grafico.querySelector('svg')?.remove();
  grafico.append(plot);

  leyenda.replaceChildren(
    ...[
      ['#1a1a1a', 'roca'],
      ['#E69F00', 'arena blanda conocida'],
      [RUTA, 'ruta'],
      [ROVER, `${t.rover_id} (rumbo ${Math.round(rumbo_deg)}°)`],
    ].map(([color, label]) => {
      const item = document.createElement('li');
      const swatch = document.createElement('span');
      swatch.className = 'muestra';
      swatch.style.background = color as string;
      swatch.setAttribute('aria-hidden', 'true');
      item.append(swatch, label as string);
      return item;
    }),
  );
  lista.replaceChildren(
    ...(ruta?.celdas.slice(1) ?? []).map((c, i) => {
      const from = ruta?.celdas[i] as Celda;
      const item = document.createElement('li');
      const button = document.createElement('button');
      button.type = 'button';
      button.textContent = `Tramo ${i + 1}: (${from.x}, ${from.y}) → (${c.x}, ${c.y})`;
      const on = () => highlight(i + 1);
      button.addEventListener('mouseenter', on);
      button.addEventListener('focus', on);
      button.addEventListener('mouseleave', () => highlight(undefined));
      button.addEventListener('blur', () => highlight(undefined));
      item.append(button);
      return item;
    }),
  );
}

function highlight(tramo: number | undefined): void {
  for (const line of grafico.querySelectorAll<SVGLineElement>('line.tramo')) {
    const on = Number(line.dataset.tramo) === tramo;
    line.classList.toggle('resaltado', on);
    line.setAttribute('stroke-width', on ? '3' : '0');
    line.setAttribute('stroke', on ? ROVER : RUTA);
  }
}

/** Route states in which the rover may still move: the view keeps following it through the host. */
const MOVING = new Set(['planificada', 'en_curso']);
/** How often the view asks for the rover's pose while its route may move, and for how long at most. */
const FOLLOW_EVERY_MS = 1_000;
const FOLLOW_AT_MOST_MS = 15 * 60_000;
let following: ReturnType<typeof setTimeout> | undefined;

type Shown = { id: string; estado: string; celdas: Celda[] };

/**
 * While `ejecutar_ruta` drives the route (or it is planned and may start), the rover's pose and the route's
 * state are read again through the host each second (`terreno_rover`, a view-only tool) and drawn; the
 * view stops asking once the route is over, another route replaced it, or after 15 minutes.
 */
function follow(roverId: string, ruta: Shown, t: Terreno, since = Date.now()): void {
  clearTimeout(following);
  if (!MOVING.has(ruta.estado) || Date.now() - since > FOLLOW_AT_MOST_MS) return;
  following = setTimeout(async () => {
    const answer = await bridge.callTool('terreno_rover', { rover_id: roverId }).catch(() => undefined);
    const now = answer?.structuredContent as unknown as Terreno | undefined;
    if (!now || answer?.isError) return follow(roverId, ruta, t, since);
    if (now.ruta_reciente?.ruta_id !== ruta.id) return;
    const moved: Shown = { ...ruta, estado: now.ruta_reciente.estado };
    overlay({ ...t, posicion: now.posicion }, moved);
    estado.textContent = describe(moved, now.posicion);
    grafico.dataset.estadoRuta = moved.estado;
    follow(roverId, moved, t, since);
  }, FOLLOW_EVERY_MS);
}

function describe(ruta: Shown, at: Celda): string {
  return `Ruta ${ruta.id} (${ruta.estado}), ${ruta.celdas.length - 1} tramos; rover en (${at.x}, ${at.y}).`;
}

async function show(result: ToolResult): Promise<void> {
  clearTimeout(following);
  const data = result.structuredContent as (Partial<Ruta> & { rover_id?: string }) | undefined;
  if (result.isError || !data?.rover_id) {
    estado.textContent = result.content?.[0]?.text ?? 'La herramienta no devolvió un rover.';
    return;
  }
  if (!bridge.canCallTools()) {
    estado.textContent = 'El anfitrión no permite a la vista pedir el terreno.';
    return;
  }
  const answer = await bridge.callTool('terreno_rover', { rover_id: data.rover_id });
  if (answer.isError || !answer.structuredContent) {
    estado.textContent = answer.content?.[0]?.text ?? 'No se pudo leer el terreno.';
    return;
  }
  const t = answer.structuredContent as unknown as Terreno;
  // A planned route comes in the result itself; the rover's state shows its latest route, if any.
  const ruta =
    data.ruta_id && data.origen && data.tramos
      ? {
          id: data.ruta_id,
          estado: data.estado ?? '',
          celdas: [data.origen, ...data.tramos.map((l) => l.hasta)],
        }
      : t.ruta_reciente
        ? { id: t.ruta_reciente.ruta_id, estado: t.ruta_reciente.estado, celdas: t.ruta_reciente.celdas }
        : undefined;
  (document.getElementById('titulo') as HTMLElement).textContent = `Terreno de ${t.rover_id}`;
  paint(t);
  overlay(t, ruta);
  estado.textContent = ruta ? describe(ruta, t.posicion) : `${t.rover_id} sin rutas.`;
  grafico.dataset.listo = 'si';
  if (ruta) {
    grafico.dataset.estadoRuta = ruta.estado;
    follow(t.rover_id, ruta, t);
  }
}

bridge.onToolResult = (result) => void show(result);
void bridge.connect();
