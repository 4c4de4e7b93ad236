// Draws the panel's icons once, into public/ (committed; nothing is drawn at build or run time):
// `node scripts/make-icons.mjs` after a change to the drawing below. Chromium (playwright-core, as the browser
// suite uses it) paints the SVG at each size; favicon.ico holds the 16, 32 and 48 px PNGs (the ICO format
// takes PNG images as they are).
import fs from 'node:fs';
import path from 'node:path';
import { chromium } from 'playwright-core';

const PRIMARY = '#1f4e8c'; // the light theme's primary colour (src/web/layout/theme.ts), the app bar's
const ACCENT = '#5fc9b8'; // the dark theme's secondary colour

/** Three tiers, a network's levels: the same shapes on every icon, on a 512 x 512 grid. */
const tiers = `
  <rect x="206" y="136" width="100" height="56" rx="12" fill="${ACCENT}"/>
  <rect x="156" y="228" width="200" height="56" rx="12" fill="#ffffff"/>
  <rect x="106" y="320" width="300" height="56" rx="12" fill="#ffffff"/>`;

/** The icon for tabs and launchers that draw it as it is: a rounded square, its corners transparent. */
const anyIcon = `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 512 512">
  <rect width="512" height="512" rx="96" fill="${PRIMARY}"/>${tiers}
</svg>
`;

/**
 * The maskable icon: the launcher cuts its own shape (a circle, a squircle) out of the whole square, so the
 * colour runs to the edges and the tiers keep within the central safe zone (a circle of 80% of the width).
 */
const maskableIcon = `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 512 512">
  <rect width="512" height="512" fill="${PRIMARY}"/>
  <g transform="translate(256 256) scale(0.8) translate(-256 -256)">${tiers}</g>
</svg>
`;

const root = path.resolve(import.meta.dirname, '..', 'public');
fs.mkdirSync(path.join(root, 'icons'), { recursive: true });

const browser = await chromium.launch({
  executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
  args: ['--no-sandbox', '--disable-gpu'],
});
const page = await browser.newPage();

async function png(svg, size) {
  await page.setViewportSize({ width: size, height: size });
  await page.setContent(
    `<html><body style="margin:0">${svg.replace('<svg ', `<svg width="${size}" height="${size}" `)}</body></html>`,
  );
  return page.locator('svg').screenshot({ omitBackground: true, type: 'png' });
}

/** An ICO file of PNG images: a 6-byte header, a 16-byte entry per image, then the images. */
function ico(images) {
  const header = Buffer.alloc(6 + 16 * images.length);
  header.writeUInt16LE(0, 0);
  header.writeUInt16LE(1, 2); // 1: icon
  header.writeUInt16LE(images.length, 4);
  let offset = header.length;
  images.forEach(({ size, data }, i) => {
    const entry = 6 + 16 * i;
    header.writeUInt8(size >= 256 ? 0 : size, entry);
    header.writeUInt8(size >= 256 ? 0 : size, entry + 1);
    header.writeUInt8(0, entry + 2); // no palette
    header.writeUInt8(0, entry + 3);
    header.writeUInt16LE(1, entry + 4); // colour planes
    header.writeUInt16LE(32, entry + 6); // bits per pixel
    header.writeUInt32LE(data.length, entry + 8);
    header.writeUInt32LE(offset, entry + 12);
    offset += data.length;
  });
  return Buffer.concat([header, ...images.map(({ data }) => data)]);
}

try {
  fs.writeFileSync(path.join(root, 'favicon.svg'), anyIcon);
  fs.writeFileSync(path.join(root, 'icons', 'icon-192.png'), await png(anyIcon, 192));
  fs.writeFileSync(path.join(root, 'icons', 'icon-512.png'), await png(anyIcon, 512));
  fs.writeFileSync(path.join(root, 'icons', 'maskable-192.png'), await png(maskableIcon, 192));
  fs.writeFileSync(path.join(root, 'icons', 'maskable-512.png'), await png(maskableIcon, 512));
  const small = [];
  for (const size of [16, 32, 48]) small.push({ size, data: await png(anyIcon, size) });
  fs.writeFileSync(path.join(root, 'favicon.ico'), ico(small));
} finally {
  await browser.close();
}
