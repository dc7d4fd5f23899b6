// Share-image worker (plain JavaScript so it runs in a worker thread without a TypeScript loader): renders SVG
// to RGBA with resvg and writes a PNG with a fast deflate (resvg's own PNG encoder is about 4 times slower).
import { parentPort, workerData } from 'node:worker_threads';
import { writeFileSync, renameSync } from 'node:fs';
import { deflateSync, crc32 } from 'node:zlib';
import { Resvg } from '@resvg/resvg-js';

const font = workerData.fontFiles.length > 0
  ? { loadSystemFonts: false, fontFiles: workerData.fontFiles, defaultFontFamily: workerData.fontFamily }
  : { loadSystemFonts: true };

function chunk(type, data) {
  const length = Buffer.alloc(4);
  length.writeUInt32BE(data.length);
  const body = Buffer.concat([Buffer.from(type, 'latin1'), data]);
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(body) >>> 0);
  return Buffer.concat([length, body, crc]);
}

function png(width, height, rgba) {
  const stride = width * 4 + 1;
  const raw = Buffer.alloc(stride * height);
  for (let y = 0; y < height; y++) rgba.copy(raw, y * stride + 1, y * width * 4, (y + 1) * width * 4);
  const header = Buffer.alloc(13);
  header.writeUInt32BE(width, 0);
  header.writeUInt32BE(height, 4);
  header[8] = 8;
  header[9] = 6;
  return Buffer.concat([
    Buffer.from([137, 80, 78, 71, 13, 10, 26, 10]),
    chunk('IHDR', header),
    chunk('IDAT', deflateSync(raw, { level: 1 })),
    chunk('IEND', Buffer.alloc(0)),
  ]);
}

parentPort.on('message', (jobs) => {
  for (const { svg, path } of jobs) {
    const image = new Resvg(svg, { font }).render();
    const temp = `${path}.${process.pid}.tmp`;
    writeFileSync(temp, png(image.width, image.height, image.pixels));
    renameSync(temp, path);
  }
  parentPort.postMessage(jobs.length);
});
