import type { Instrument, Reading } from '@code-cluster/shared/roverdt';
import { daylight, localHour, round } from './model.js';
import { hash3, indexOf, inMap, slopeDeg, type Terrain } from './terrain.js';

export interface InstrumentReading {
  readings: Reading[];
  summary: string;
}

/** How far the mast camera sees rocks and relief, and how close it makes out soft sand, metres. */
const CAMERA_RANGE_M = 12;
const SAND_RANGE_M = 3;

/**
 * What an instrument reads at a cell and simulated instant: a pure function of the terrain, the position
 * and the clock, so the same question always gets the same answer.
 */
export function measure(t: Terrain, x: number, y: number, clockMs: number, instrument: Instrument) {
  switch (instrument) {
    case 'camara':
      return camera(t, x, y, clockMs);
    case 'espectrometro':
      return spectrometer(t, x, y);
    case 'termometro':
      return thermometer(t, x, y, clockMs);
    case 'sismometro':
      return seismometer(t, clockMs);
  }
}

function camera(t: Terrain, x: number, y: number, clockMs: number): InstrumentReading {
  let rocks = 0;
  let sand = 0;
  let nearestSand = Number.POSITIVE_INFINITY;
  let low = Number.POSITIVE_INFINITY;
  let high = Number.NEGATIVE_INFINITY;
  for (let dy = -CAMERA_RANGE_M; dy <= CAMERA_RANGE_M; dy++) {
    for (let dx = -CAMERA_RANGE_M; dx <= CAMERA_RANGE_M; dx++) {
      const d = Math.hypot(dx, dy);
      if (d > CAMERA_RANGE_M || !inMap(t, x + dx, y + dy)) continue;
      const i = indexOf(t, x + dx, y + dy);
      rocks += t.obstacle[i]!;
      low = Math.min(low, t.elevation[i]!);
      high = Math.max(high, t.elevation[i]!);
      if (t.hazard[i] && d <= SAND_RANGE_M) {
        sand++;
        nearestSand = Math.min(nearestSand, d);
      }
    }
  }
  const here = indexOf(t, x, y);
  let localSlope = 0;
  for (let dy = -1; dy <= 1; dy++) {
    for (let dx = -1; dx <= 1; dx++) {
      if ((dx || dy) && inMap(t, x + dx, y + dy))
        localSlope = Math.max(localSlope, slopeDeg(t, here, indexOf(t, x + dx, y + dy)));
    }
  }
  const light = round(daylight(clockMs) * 100, 0);
  const readings: Reading[] = [
    { name: 'rocas_visibles', value: rocks, unit: 'celdas' },
    { name: 'desnivel_visible', value: round(high - low, 2), unit: 'm' },
    { name: 'pendiente_local', value: round(localSlope, 1), unit: '°' },
    { name: 'arena_blanda_cercana', value: sand, unit: 'celdas' },
    { name: 'iluminacion', value: light, unit: '%' },
  ];
  const sandText =
    sand > 0
      ? ` Atención: arena blanda a ${round(nearestSand, 1)} m (${sand} celdas a menos de ${SAND_RANGE_M} m).`
      : ' Sin arena blanda a la vista.';
  const summary =
    `Panorámica en (${x}, ${y}): ${rocks} celdas de roca en ${CAMERA_RANGE_M} m, desnivel ` +
    `${round(high - low, 1)} m, pendiente local ${round(localSlope, 1)}°, luz ${light} %.${sandText}` +
    (light === 0 ? ' Es de noche: la imagen es de baja calidad.' : '');
  return { readings, summary };
}

const MINERALS = ['basalto', 'olivino', 'piroxeno', 'hematita', 'sulfatos'] as const;

function spectrometer(t: Terrain, x: number, y: number): InstrumentReading {
  // Crater floors expose altered rock: more hematite and sulfates.
  const inCrater = t.craters.some((c) => Math.hypot(x - c.x, y - c.y) < c.radius * 0.8);
  const weights = MINERALS.map((_, k) => {
    const base = [5, 1.5, 2, 0.5, 0.4][k]!;
    const altered = inCrater && k >= 3 ? 2.5 : 0;
    return base + altered + 1.2 * (1 + pointNoise(x / 24, y / 24, t.seed + 101 * (k + 1)));
  });
  const total = weights.reduce((a, b) => a + b, 0);
  const readings = MINERALS.map((name, k) => ({
    name,
    value: round((weights[k]! / total) * 100, 1),
    unit: '%',
  }));
  const top = [...readings].sort((a, b) => b.value - a.value).slice(0, 2);
  const summary =
    `Composición en (${x}, ${y}): sobre todo ${top[0]!.name} (${top[0]!.value} %) y ${top[1]!.name} ` +
    `(${top[1]!.value} %)${inCrater ? '; suelo de cráter, con minerales alterados por agua' : ''}.`;
  return { readings, summary };
}

function thermometer(t: Terrain, x: number, y: number, clockMs: number): InstrumentReading {
  const sun = daylight(clockMs);
  const elevation = t.elevation[indexOf(t, x, y)]!;
  const air = -78 + 58 * sun - 0.15 * elevation + 1.5 * pointNoise(x / 16, y / 16, t.seed + 7);
  const ground = air + 14 * sun - 4;
  const readings = [
    { name: 'temperatura_aire', value: round(air, 1), unit: '°C' },
    { name: 'temperatura_suelo', value: round(ground, 1), unit: '°C' },
    { name: 'hora_solar_local', value: round(localHour(clockMs), 2), unit: 'h' },
  ];
  const summary =
    `Aire a ${round(air, 1)} °C y suelo a ${round(ground, 1)} °C en (${x}, ${y}), ` +
    `hora solar local ${formatHour(localHour(clockMs))}.`;
  return { readings, summary };
}

/** Quakes happen in some hours of the twin's clock (one in seven, by a hash of the hour). */
function seismometer(t: Terrain, clockMs: number): InstrumentReading {
  const hour = Math.floor(clockMs / 3_600_000);
  const quake = hash3(hour, t.seed, 17) % 7 === 0;
  const background = 0.4 + 0.3 * (hash3(Math.floor(clockMs / 60_000), t.seed, 3) / 0xffffffff);
  const amplitude = quake ? 15 + (hash3(hour, t.seed, 29) % 60) : background;
  const frequency = quake ? 2 + (hash3(hour, t.seed, 31) % 30) / 10 : 0.2;
  const readings = [
    { name: 'velocidad_rms', value: round(amplitude, 2), unit: 'nm/s' },
    { name: 'frecuencia_dominante', value: round(frequency, 1), unit: 'Hz' },
    { name: 'sismo_detectado', value: quake ? 1 : 0, unit: 'bool' },
  ];
  const summary = quake
    ? `Sismo detectado: ${round(amplitude, 1)} nm/s a ${round(frequency, 1)} Hz.`
    : `Ruido de fondo: ${round(amplitude, 2)} nm/s; ningún sismo en curso.`;
  return { readings, summary };
}

function formatHour(hour: number): string {
  const h = Math.floor(hour);
  const m = Math.floor((hour - h) * 60);
  return `${String(h).padStart(2, '0')}:${String(m).padStart(2, '0')}`;
}

/** Value noise at one point, in [-1, 1]. */
function pointNoise(x: number, y: number, salt: number): number {
  const x0 = Math.floor(x);
  const y0 = Math.floor(y);
  const sx = (x - x0) ** 2 * (3 - 2 * (x - x0));
  const sy = (y - y0) ** 2 * (3 - 2 * (y - y0));
  const v = (i: number, j: number) => (hash3(i, j, salt) / 0xffffffff) * 2 - 1;
  const top = v(x0, y0) + (v(x0 + 1, y0) - v(x0, y0)) * sx;
  const bottom = v(x0, y0 + 1) + (v(x0 + 1, y0 + 1) - v(x0, y0 + 1)) * sx;
  return top + (bottom - top) * sy;
}
