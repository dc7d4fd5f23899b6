/** A content type and whether the body is worth compressing. */
export interface MediaType {
  type: string;
  compressible: boolean;
}

const text = (type: string): MediaType => ({ type: `${type}; charset=utf-8`, compressible: true });
const binary = (type: string): MediaType => ({ type, compressible: false });

const MEDIA_TYPES: ReadonlyMap<string, MediaType> = new Map([
  ['html', text('text/html')],
  ['css', text('text/css')],
  ['js', text('text/javascript')],
  ['mjs', text('text/javascript')],
  ['json', text('application/json')],
  ['map', text('application/json')],
  ['webmanifest', text('application/manifest+json')],
  ['svg', text('image/svg+xml')],
  ['xml', text('application/xml')],
  ['txt', text('text/plain')],
  ['csv', text('text/csv')],
  ['png', binary('image/png')],
  ['jpg', binary('image/jpeg')],
  ['jpeg', binary('image/jpeg')],
  ['gif', binary('image/gif')],
  ['webp', binary('image/webp')],
  ['avif', binary('image/avif')],
  // Icons are often uncompressed BMP inside, so gzip pays off.
  ['ico', { type: 'image/x-icon', compressible: true }],
  ['woff2', binary('font/woff2')],
  ['woff', binary('font/woff')],
  ['xlsx', binary('application/vnd.openxmlformats-officedocument.spreadsheetml.sheet')],
]);

const OCTET_STREAM: MediaType = binary('application/octet-stream');

/** The media type for a file name, by its extension (application/octet-stream when unknown). */
export function mediaTypeFor(fileName: string): MediaType {
  const dot = fileName.lastIndexOf('.');
  if (dot === -1 || fileName.indexOf('/', dot) !== -1) return OCTET_STREAM;
  return MEDIA_TYPES.get(fileName.slice(dot + 1).toLowerCase()) ?? OCTET_STREAM;
}

/** A content coding the server can send. */
export type Encoding = 'br' | 'gzip' | 'identity';

const encodingMemo = new Map<string, Encoding>();
const ENCODING_MEMO_LIMIT = 256;

/** The coding to send for an Accept-Encoding header: the highest q among br and gzip, br on a tie. */
export function preferredEncoding(acceptEncoding: string | null | undefined): Encoding {
  if (!acceptEncoding) return 'identity';
  const known = encodingMemo.get(acceptEncoding);
  if (known !== undefined) return known;
  const choice = parseAcceptEncoding(acceptEncoding);
  // Clients send a handful of distinct values; the bound keeps odd ones from growing the map.
  if (encodingMemo.size >= ENCODING_MEMO_LIMIT) encodingMemo.clear();
  encodingMemo.set(acceptEncoding, choice);
  return choice;
}

function parseAcceptEncoding(header: string): Encoding {
  let br: number | undefined;
  let gzip: number | undefined;
  let star: number | undefined;
  for (const part of header.split(',')) {
    const [rawName = '', ...params] = part.split(';');
    const name = rawName.trim().toLowerCase();
    let q = 1;
    for (const param of params) {
      const [key = '', value = ''] = param.split('=');
      if (key.trim().toLowerCase() === 'q') {
        const parsed = Number(value.trim());
        q = Number.isFinite(parsed) ? parsed : 0;
      }
    }
    if (name === 'br') br = q;
    else if (name === 'gzip' || name === 'x-gzip') gzip = q;
    else if (name === '*') star = q;
  }
  const brQ = br ?? star ?? 0;
  const gzipQ = gzip ?? star ?? 0;
  if (brQ > 0 && brQ >= gzipQ) return 'br';
  if (gzipQ > 0) return 'gzip';
  return 'identity';
}

/** Whether an If-None-Match header matches the entity tag (weak comparison, as RFC 9110 asks for GET). */
export function etagMatches(ifNoneMatch: string, etag: string): boolean {
  if (ifNoneMatch === etag) return true;
  for (const candidate of ifNoneMatch.split(',')) {
    const tag = candidate.trim();
    if (tag === '*') return true;
    if ((tag.startsWith('W/') ? tag.slice(2) : tag) === etag) return true;
  }
  return false;
}
