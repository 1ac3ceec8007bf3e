#!/usr/bin/env node
/**
 * Draws Avail's icons and tray images into build/ — pure Node (zlib for PNG), no image tools:
 *
 *   node build/make-icons.mjs
 *
 * The mark: a calendar page (header band, two binder rings) with a check mark — "a free slot".
 * Shapes are signed distance functions in unit coordinates, rasterised once per output size with
 * one-pixel anti-aliasing, so every size is drawn sharp rather than scaled down.
 *
 * Outputs (see build/README.md): icon.png (1024), icon.icns (PNG entries 16@2x…512@2x),
 * icon.ico (16, 32, 48, 256; PNG entries), trayTemplate.png / @2x (black + alpha, macOS template),
 * tray-light.png / @2x (dark mark for light panels), tray-dark.png / @2x (white mark for dark panels).
 */
import { writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { deflateSync } from 'node:zlib';

const outDir = dirname(fileURLToPath(import.meta.url));

// ---------------------------------------------------------------------------------------------
// Signed distance functions (unit coordinates, y down; negative inside)
// ---------------------------------------------------------------------------------------------

/** Rounded rectangle from (x0, y0) to (x1, y1) with corner radius r. */
const roundRect = (x0, y0, x1, y1, r) => (x, y) => {
  const cx = (x0 + x1) / 2, cy = (y0 + y1) / 2;
  const qx = Math.abs(x - cx) - ((x1 - x0) / 2 - r);
  const qy = Math.abs(y - cy) - ((y1 - y0) / 2 - r);
  return Math.hypot(Math.max(qx, 0), Math.max(qy, 0)) + Math.min(Math.max(qx, qy), 0) - r;
};
/** A stroke of width w along the segment a–b, round caps. */
const segment = (ax, ay, bx, by, w) => (x, y) => {
  const px = x - ax, py = y - ay, dx = bx - ax, dy = by - ay;
  const h = Math.max(0, Math.min(1, (px * dx + py * dy) / (dx * dx + dy * dy)));
  return Math.hypot(px - dx * h, py - dy * h) - w / 2;
};
/** A stroke of width w along a polyline, round caps and joins. */
const polyline = (points, w) => {
  const parts = [];
  for (let i = 1; i < points.length; i++) parts.push(segment(...points[i - 1], ...points[i], w));
  return union(...parts);
};
const union = (...fs) => (x, y) => Math.min(...fs.map((f) => f(x, y)));
const intersect = (...fs) => (x, y) => Math.max(...fs.map((f) => f(x, y)));
const subtract = (a, b) => (x, y) => Math.max(a(x, y), -b(x, y));
/** The outline of a shape: a band of width w centred on its edge. */
const outline = (f, w) => (x, y) => Math.abs(f(x, y)) - w / 2;
const halfPlaneAbove = (yMax) => (_x, y) => y - yMax;

// ---------------------------------------------------------------------------------------------
// Raster
// ---------------------------------------------------------------------------------------------

/** A layer: a shape and its colour [r, g, b, a] (0–255). */
function render(size, layers) {
  const px = new Float64Array(size * size * 4); // premultiplied, 0–1
  for (let j = 0; j < size; j++) {
    for (let i = 0; i < size; i++) {
      const x = (i + 0.5) / size, y = (j + 0.5) / size;
      const k = (j * size + i) * 4;
      for (const { shape, color } of layers) {
        const coverage = Math.max(0, Math.min(1, 0.5 - shape(x, y) * size));
        if (coverage === 0) continue;
        const a = (color[3] / 255) * coverage;
        for (let c = 0; c < 3; c++) px[k + c] = (color[c] / 255) * a + px[k + c] * (1 - a);
        px[k + 3] = a + px[k + 3] * (1 - a);
      }
    }
  }
  const out = Buffer.alloc(size * size * 4);
  for (let k = 0; k < px.length; k += 4) {
    const a = px[k + 3];
    for (let c = 0; c < 3; c++) out[k + c] = a > 0 ? Math.round((px[k + c] / a) * 255) : 0;
    out[k + 3] = Math.round(a * 255);
  }
  return out;
}

const CRC_TABLE = Array.from({ length: 256 }, (_, n) => {
  let c = n;
  for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
  return c >>> 0;
});
function crc32(buf) {
  let c = 0xffffffff;
  for (const b of buf) c = CRC_TABLE[(c ^ b) & 0xff] ^ (c >>> 8);
  return (c ^ 0xffffffff) >>> 0;
}
function chunk(type, data) {
  const len = Buffer.alloc(4);
  len.writeUInt32BE(data.length);
  const body = Buffer.concat([Buffer.from(type, 'ascii'), data]);
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(body));
  return Buffer.concat([len, body, crc]);
}
/** An RGBA PNG (colour type 6, 8 bits, no interlace, filter 0 on every row). */
function png(size, rgba) {
  const ihdr = Buffer.alloc(13);
  ihdr.writeUInt32BE(size, 0);
  ihdr.writeUInt32BE(size, 4);
  ihdr[8] = 8;
  ihdr[9] = 6;
  const raw = Buffer.alloc((size * 4 + 1) * size);
  for (let y = 0; y < size; y++) rgba.copy(raw, y * (size * 4 + 1) + 1, y * size * 4, (y + 1) * size * 4);
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk('IHDR', ihdr),
    chunk('IDAT', deflateSync(raw, { level: 9 })),
    chunk('IEND', Buffer.alloc(0)),
  ]);
}

/** ICO with PNG-compressed entries (Windows Vista and later). */
function ico(entries) {
  const header = Buffer.alloc(6 + 16 * entries.length);
  header.writeUInt16LE(0, 0);
  header.writeUInt16LE(1, 2); // icon
  header.writeUInt16LE(entries.length, 4);
  let offset = header.length;
  entries.forEach(({ size, data }, i) => {
    const e = 6 + 16 * i;
    header[e] = size >= 256 ? 0 : size;
    header[e + 1] = size >= 256 ? 0 : size;
    header.writeUInt16LE(1, e + 4); // planes
    header.writeUInt16LE(32, e + 6); // bits per pixel
    header.writeUInt32LE(data.length, e + 8);
    header.writeUInt32LE(offset, e + 12);
    offset += data.length;
  });
  return Buffer.concat([header, ...entries.map((e) => e.data)]);
}

/** ICNS with PNG entries: type (4 ASCII) + big-endian length (header included) + data. */
function icns(entries) {
  const parts = entries.map(({ type, data }) => {
    const h = Buffer.alloc(8);
    h.write(type, 0, 'ascii');
    h.writeUInt32BE(data.length + 8, 4);
    return Buffer.concat([h, data]);
  });
  const total = 8 + parts.reduce((n, p) => n + p.length, 0);
  const h = Buffer.alloc(8);
  h.write('icns', 0, 'ascii');
  h.writeUInt32BE(total, 4);
  return Buffer.concat([h, ...parts]);
}

// ---------------------------------------------------------------------------------------------
// The mark
// ---------------------------------------------------------------------------------------------

const INDIGO = [0x4f, 0x46, 0xe5, 255]; // the web app's accent (favicon)
const INDIGO_DARK = [0x37, 0x30, 0xa3, 255];
const WHITE = [255, 255, 255, 255];

/** App icon: indigo rounded square (macOS grid: 824/1024), white calendar page, indigo check. */
function appIconLayers() {
  const m = (1 - 824 / 1024) / 2;
  const page = roundRect(0.25, 0.3, 0.75, 0.76, 0.06);
  return [
    { shape: roundRect(m, m, 1 - m, 1 - m, 0.185 * (1 - 2 * m)), color: INDIGO },
    { shape: page, color: WHITE },
    { shape: intersect(page, halfPlaneAbove(0.41)), color: INDIGO_DARK },
    { shape: union(segment(0.37, 0.25, 0.37, 0.35, 0.05), segment(0.63, 0.25, 0.63, 0.35, 0.05)), color: WHITE },
    { shape: polyline([[0.37, 0.575], [0.46, 0.66], [0.64, 0.49]], 0.06), color: INDIGO },
  ];
}

/** Tray glyph, one colour: calendar outline, filled header band, two rings, a check. */
function trayShape() {
  const frame = roundRect(0.1, 0.17, 0.9, 0.92, 0.15);
  const stroke = 0.1;
  const inner = roundRect(0.1 + stroke / 2, 0.17 + stroke / 2, 0.9 - stroke / 2, 0.92 - stroke / 2, 0.1);
  const rings = union(segment(0.33, 0.07, 0.33, 0.25, 0.11), segment(0.67, 0.07, 0.67, 0.25, 0.11));
  const header = intersect(inner, halfPlaneAbove(0.4));
  const check = polyline([[0.31, 0.63], [0.45, 0.76], [0.7, 0.51]], 0.11);
  // Rings cut a small gap into the header so they read at 16 px.
  return union(subtract(union(outline(frame, stroke), header), union(segment(0.33, 0.05, 0.33, 0.3, 0.2), segment(0.67, 0.05, 0.67, 0.3, 0.2))), rings, check);
}

const BLACK = [0, 0, 0, 255];
const DARK_GLYPH = [0x1f, 0x29, 0x37, 255]; // on light panels
const LIGHT_GLYPH = [255, 255, 255, 255]; // on dark panels

function write(name, data) {
  writeFileSync(join(outDir, name), data);
  console.log(`build/${name}  ${data.length} bytes`);
}

const appPng = (size) => png(size, render(size, appIconLayers()));
const trayPng = (size, color) => png(size, render(size, [{ shape: trayShape(), color }]));

write('icon.png', appPng(1024));
write(
  'icon.icns',
  icns([
    { type: 'ic11', data: appPng(32) }, // 16@2x
    { type: 'ic12', data: appPng(64) }, // 32@2x
    { type: 'ic07', data: appPng(128) },
    { type: 'ic13', data: appPng(256) }, // 128@2x
    { type: 'ic08', data: appPng(256) },
    { type: 'ic14', data: appPng(512) }, // 256@2x
    { type: 'ic09', data: appPng(512) },
    { type: 'ic10', data: appPng(1024) }, // 512@2x
  ]),
);
write('icon.ico', ico([16, 32, 48, 256].map((size) => ({ size, data: appPng(size) }))));
write('trayTemplate.png', trayPng(16, BLACK));
write('trayTemplate@2x.png', trayPng(32, BLACK));
write('tray-light.png', trayPng(16, DARK_GLYPH));
write('tray-light@2x.png', trayPng(32, DARK_GLYPH));
write('tray-dark.png', trayPng(16, LIGHT_GLYPH));
write('tray-dark@2x.png', trayPng(32, LIGHT_GLYPH));
