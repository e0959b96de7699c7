import { describe, expect, it } from 'vitest';
import {
  cutIntoLegs,
  explainUnreachable,
  findPath,
  LEG_MOVES,
  moveCost,
  type PlanLimits,
} from './planner.js';
import { indexOf, inMap, mulberry32, slopeDeg, type Terrain, terrainFromRows } from './terrain.js';

const LIMITS: PlanLimits = { maxSlopeDeg: 20 };
const at = (t: Terrain, x: number, y: number) => indexOf(t, x, y);

function pathCost(t: Terrain, path: readonly number[], limits = LIMITS): number {
  let cost = 0;
  for (let k = 1; k < path.length; k++) {
    const a = path[k - 1]!;
    const b = path[k]!;
    const diagonal = a % t.width !== b % t.width && Math.floor(a / t.width) !== Math.floor(b / t.width);
    cost += moveCost(t, a, b, diagonal ? Math.SQRT2 : 1, limits);
  }
  return cost;
}

/** Plain Dijkstra over every cell, O(n²): the reference A* must match. */
function dijkstraCost(t: Terrain, start: number, goal: number, limits = LIMITS): number {
  const n = t.width * t.height;
  const dist = new Array<number>(n).fill(Number.POSITIVE_INFINITY);
  const done = new Array<boolean>(n).fill(false);
  dist[start] = 0;
  for (;;) {
    let u = -1;
    for (let i = 0; i < n; i++) if (!done[i] && (u === -1 || dist[i]! < dist[u]!)) u = i;
    if (u === -1 || dist[u] === Number.POSITIVE_INFINITY) return Number.POSITIVE_INFINITY;
    if (u === goal) return dist[u]!;
    done[u] = true;
    const x = u % t.width;
    const y = Math.floor(u / t.width);
    for (let dy = -1; dy <= 1; dy++) {
      for (let dx = -1; dx <= 1; dx++) {
        if ((!dx && !dy) || !inMap(t, x + dx, y + dy)) continue;
        const v = at(t, x + dx, y + dy);
        if (t.obstacle[v] || slopeDeg(t, u, v) > limits.maxSlopeDeg) continue;
        const c = dist[u]! + moveCost(t, u, v, dx && dy ? Math.SQRT2 : 1, limits);
        if (c < dist[v]!) dist[v] = c;
      }
    }
  }
}

describe('A* route planning', () => {
  it('finds the shortest way around a wall on a hand-drawn map', () => {
    const t = terrainFromRows([
      '..........',
      '..........',
      '....#.....',
      '....#.....',
      '....#.....',
      '....#.....',
      '..........',
    ]);
    const path = findPath(t, at(t, 1, 3), at(t, 8, 3), LIMITS)!;
    expect(path[0]).toBe(at(t, 1, 3));
    expect(path.at(-1)).toBe(at(t, 8, 3));
    expect(pathCost(t, path)).toBeCloseTo(dijkstraCost(t, at(t, 1, 3), at(t, 8, 3)), 9);
    for (const cell of path) expect(t.obstacle[cell]).toBe(0);
    // Every move is to one of the 8 neighbours.
    for (let k = 1; k < path.length; k++) {
      const a = path[k - 1]!;
      const b = path[k]!;
      expect(Math.max(Math.abs((a % 10) - (b % 10)), Math.abs(Math.floor(a / 10) - Math.floor(b / 10)))).toBe(
        1,
      );
    }
  });

  it('prefers a longer flat way over a shorter climb when the slope penalty makes it cheaper', () => {
    // A ridge of 0.3 m steps (16.7°, within the limit) across the direct line, open ground around it.
    const t = terrainFromRows(['.......', '...3...', '...3...', '...3...', '.......'], 0.1);
    const ridgeCost = moveCost(t, at(t, 2, 2), at(t, 3, 2), 1, LIMITS);
    expect(ridgeCost).toBeGreaterThan(1.4);
    const path = findPath(t, at(t, 0, 2), at(t, 6, 2), LIMITS)!;
    expect(path).not.toContain(at(t, 3, 2));
    expect(pathCost(t, path)).toBeCloseTo(dijkstraCost(t, at(t, 0, 2), at(t, 6, 2)), 9);
  });

  it('matches an exhaustive Dijkstra on 40 random small maps (optimality)', () => {
    const random = mulberry32(42);
    let compared = 0;
    for (let m = 0; m < 40; m++) {
      const rows = Array.from({ length: 12 }, () =>
        Array.from({ length: 12 }, () => (random() < 0.22 ? '#' : String(Math.floor(random() * 4)))).join(''),
      );
      const t = terrainFromRows(rows, 0.15);
      const free = [...Array(144).keys()].filter((i) => !t.obstacle[i]);
      const start = free[Math.floor(random() * free.length)]!;
      const goal = free[Math.floor(random() * free.length)]!;
      if (start === goal) continue;
      const path = findPath(t, start, goal, LIMITS);
      const best = dijkstraCost(t, start, goal);
      if (path === undefined) expect(best).toBe(Number.POSITIVE_INFINITY);
      else {
        expect(pathCost(t, path)).toBeCloseTo(best, 9);
        compared++;
      }
    }
    expect(compared).toBeGreaterThan(20);
  });

  it('never takes a move steeper than the limit', () => {
    const t = terrainFromRows(['.....', '.999.', '.9.9.', '.999.', '.....'], 0.1);
    // The pit in the middle is walled by 0.9 m steps (42°): unreachable, whatever the distance.
    expect(findPath(t, at(t, 0, 0), at(t, 2, 2), LIMITS)).toBeUndefined();
    expect(findPath(t, at(t, 0, 0), at(t, 2, 2), { maxSlopeDeg: 45 })).toBeDefined();
  });
});

describe('why a destination is unreachable', () => {
  it('blames the slope, with the gentlest slope that would do, when rocks leave a way', () => {
    const t = terrainFromRows(['.....', '.999.', '.9.9.', '.999.', '.....'], 0.1);
    const why = explainUnreachable(t, at(t, 0, 0), at(t, 2, 2), LIMITS);
    expect(why.kind).toBe('pendiente');
    // Down from a 0.9 m rim to the 0 m floor along a diagonal (√2 m), the gentlest way in.
    expect(why.kind === 'pendiente' && why.neededSlopeDeg).toBeCloseTo(
      (Math.atan(0.9 / Math.SQRT2) * 180) / Math.PI,
      5,
    );
  });

  it('blames the rocks when they wall the destination in', () => {
    const t = terrainFromRows(['.....', '.###.', '.#.#.', '.###.', '.....']);
    expect(explainUnreachable(t, at(t, 0, 0), at(t, 2, 2), LIMITS)).toEqual({ kind: 'obstaculos' });
  });

  it('counts known sand as a wall', () => {
    const t = terrainFromRows(['.....', '.~~~.', '.~.~.', '.~~~.', '.....']);
    const avoid = new Set([...Array(25).keys()].filter((i) => t.hazard[i]));
    expect(findPath(t, at(t, 0, 0), at(t, 2, 2), LIMITS)).toBeDefined();
    expect(findPath(t, at(t, 0, 0), at(t, 2, 2), { ...LIMITS, avoid })).toBeUndefined();
    expect(explainUnreachable(t, at(t, 0, 0), at(t, 2, 2), { ...LIMITS, avoid })).toEqual({
      kind: 'obstaculos',
    });
  });
});

describe('legs', () => {
  it(`cuts a path into legs of at most ${LEG_MOVES} moves that chain end to start`, () => {
    const t = terrainFromRows(['....................'], 1);
    const path = findPath(t, at(t, 0, 0), at(t, 19, 0), LIMITS)!;
    const legs = cutIntoLegs(t, path);
    expect(legs.map((l) => l.cells.length)).toEqual([8, 8, 3]);
    expect(legs.map((l) => l.distanceM)).toEqual([8, 8, 3]);
    for (let k = 1; k < legs.length; k++) expect(legs[k]!.from).toBe(legs[k - 1]!.to);
    expect(legs.at(-1)!.to).toBe(at(t, 19, 0));
  });
});
