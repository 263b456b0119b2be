/**
 * Tiny media files for the conformance fixtures, built at load time instead of being pasted in
 * as opaque base64: a 1×1 red PNG and a 10 ms silent 8 kHz mono WAV.
 */
import { crc32, deflateSync } from 'node:zlib';

const PNG_SIGNATURE = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);

/** One PNG chunk: length, type, data, CRC over type and data. */
function pngChunk(type: string, data: Buffer): Buffer {
  const length = Buffer.alloc(4);
  length.writeUInt32BE(data.length);
  const typed = Buffer.concat([Buffer.from(type, 'ascii'), data]);
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(typed));
  return Buffer.concat([length, typed, crc]);
}

/** A 1×1 truecolour PNG of one red pixel. */
function redPixelPng(): Buffer {
  const header = Buffer.alloc(13);
  header.writeUInt32BE(1, 0); // width
  header.writeUInt32BE(1, 4); // height
  header.writeUInt8(8, 8); // bit depth
  header.writeUInt8(2, 9); // colour type: RGB
  // Compression, filter and interlace methods stay 0.
  const scanline = Buffer.from([0x00, 0xff, 0x00, 0x00]); // filter byte, then R G B
  return Buffer.concat([
    PNG_SIGNATURE,
    pngChunk('IHDR', header),
    pngChunk('IDAT', deflateSync(scanline)),
    pngChunk('IEND', Buffer.alloc(0)),
  ]);
}

/** A RIFF/WAVE file of `samples` silent 8-bit mono samples at 8 kHz. */
function silentWav(samples: number): Buffer {
  const rate = 8_000;
  const wav = Buffer.alloc(44 + samples);
  wav.write('RIFF', 0, 'ascii');
  wav.writeUInt32LE(36 + samples, 4);
  wav.write('WAVE', 8, 'ascii');
  wav.write('fmt ', 12, 'ascii');
  wav.writeUInt32LE(16, 16); // fmt chunk size
  wav.writeUInt16LE(1, 20); // PCM
  wav.writeUInt16LE(1, 22); // mono
  wav.writeUInt32LE(rate, 24); // sample rate
  wav.writeUInt32LE(rate, 28); // byte rate (1 byte per sample)
  wav.writeUInt16LE(1, 32); // block align
  wav.writeUInt16LE(8, 34); // bits per sample
  wav.write('data', 36, 'ascii');
  wav.writeUInt32LE(samples, 40);
  wav.fill(0x80, 44); // 8-bit PCM silence is the midpoint
  return wav;
}

/** Base64 of a 1×1 red PNG. */
export const RED_PIXEL_PNG_BASE64 = redPixelPng().toString('base64');
/** Base64 of a short silent WAV. */
export const SILENT_WAV_BASE64 = silentWav(80).toString('base64');
