/**
 * The mean brightness (0 black … 255 white) of an 8-bit RGB or RGBA PNG, read with zlib alone:
 * enough to tell a picture taken in a dark theme from one taken in a light theme.
 */
import { readFileSync } from 'node:fs';
import { inflateSync } from 'node:zlib';

export function meanBrightness(file: string): number {
  const png = readFileSync(file);
  let offset = 8; // the signature
  let width = 0;
  let height = 0;
  let channels = 0;
  const data: Buffer[] = [];
  while (offset < png.length) {
    const length = png.readUInt32BE(offset);
    const type = png.toString('latin1', offset + 4, offset + 8);
    const body = png.subarray(offset + 8, offset + 8 + length);
    if (type === 'IHDR') {
      width = body.readUInt32BE(0);
      height = body.readUInt32BE(4);
      const [depth, colour] = [body[8], body[9]];
      if (depth !== 8 || (colour !== 2 && colour !== 6)) throw new Error(`${file}: only 8-bit RGB(A) pictures are read here`);
      channels = colour === 2 ? 3 : 4;
    } else if (type === 'IDAT') data.push(body);
    offset += 12 + length;
  }
  const raw = inflateSync(Buffer.concat(data));
  const stride = width * channels;
  let previous = Buffer.alloc(stride);
  let sum = 0;
  for (let y = 0; y < height; y++) {
    const filter = raw[y * (stride + 1)];
    const row = Buffer.from(raw.subarray(y * (stride + 1) + 1, (y + 1) * (stride + 1)));
    for (let x = 0; x < stride; x++) {
      const left = x >= channels ? row[x - channels] : 0;
      const up = previous[x];
      const upLeft = x >= channels ? previous[x - channels] : 0;
      const predictor = filter === 1 ? left : filter === 2 ? up : filter === 3 ? (left + up) >> 1 : filter === 4 ? paeth(left, up, upLeft) : 0;
      row[x] = (row[x] + predictor) & 0xff;
    }
    for (let x = 0; x < stride; x += channels) sum += (row[x] + row[x + 1] + row[x + 2]) / 3;
    previous = row;
  }
  return sum / (width * height);
}

function paeth(a: number, b: number, c: number): number {
  const p = a + b - c;
  const [pa, pb, pc] = [Math.abs(p - a), Math.abs(p - b), Math.abs(p - c)];
  return pa <= pb && pa <= pc ? a : pb <= pc ? b : c;
}
