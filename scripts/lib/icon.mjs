// A small PNG icon per server, drawn here (no image tool, no binary in git): a planet in the server's
// colour, an orbit and a satellite on it. Deterministic, so the bundles are reproducible.
import { deflateSync } from 'node:zlib';

const COLOURS = {
  satdt: [0x1f, 0x6f, 0xeb],
  groundstation: [0x0e, 0x9f, 0x6e],
  hub: [0xe0, 0x7a, 0x10],
  roverdt: [0xc2, 0x41, 0x0c],
  lab: [0x7c, 0x3a, 0xed],
  academy: [0xdb, 0x27, 0x77],
};

const CRC_TABLE = Array.from({ length: 256 }, (_, n) => {
  let c = n;
  for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
  return c >>> 0;
});

function crc32(buffer) {
  let c = 0xffffffff;
  for (const byte of buffer) c = CRC_TABLE[(c ^ byte) & 0xff] ^ (c >>> 8);
  return (c ^ 0xffffffff) >>> 0;
}

function chunk(type, data) {
  const length = Buffer.alloc(4);
  length.writeUInt32BE(data.length);
  const body = Buffer.concat([Buffer.from(type, 'ascii'), data]);
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(body));
  return Buffer.concat([length, body, crc]);
}

/** The icon of one app: a 128×128 RGBA PNG. */
export function iconPng(app, size = 128) {
  const [r, g, b] = COLOURS[app] ?? [0x44, 0x44, 0x44];
  const c = size / 2;
  const rows = [];
  for (let y = 0; y < size; y++) {
    const row = Buffer.alloc(1 + size * 4);
    for (let x = 0; x < size; x++) {
      const dx = x + 0.5 - c;
      const dy = y + 0.5 - c;
      const d = Math.hypot(dx, dy);
      // The orbit: an ellipse tilted by the aspect ratio; the satellite sits at its upper right.
      const orbit = Math.abs(Math.hypot(dx, dy * 2.6) - size * 0.46);
      const satellite = Math.hypot(dx - size * 0.33, dy + size * 0.12);
      let pixel = [0, 0, 0, 0];
      if (d < size * 0.3) {
        const shade = 1 - (Math.max(0, dx + dy) / (size * 0.6)) * 0.35;
        pixel = [r * shade, g * shade, b * shade, 255];
      }
      if (orbit < size * 0.018 && !(d < size * 0.3 && dy < 0)) pixel = [0x33, 0x3a, 0x45, 255];
      if (satellite < size * 0.07) pixel = [0xf5, 0xf5, 0xf5, 255];
      if (satellite >= size * 0.07 && satellite < size * 0.09) pixel = [0x33, 0x3a, 0x45, 255];
      row.set(pixel.map(Math.round), 1 + x * 4);
    }
    rows.push(row);
  }
  const header = Buffer.alloc(13);
  header.writeUInt32BE(size, 0);
  header.writeUInt32BE(size, 4);
  header[8] = 8; // bit depth
  header[9] = 6; // RGBA
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk('IHDR', header),
    chunk('IDAT', deflateSync(Buffer.concat(rows))),
    chunk('IEND', Buffer.alloc(0)),
  ]);
}
