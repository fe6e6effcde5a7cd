import { execFileSync } from "node:child_process"
import { readFileSync } from "node:fs"
import { join } from "node:path"
import { constants, crc32, deflateRawSync } from "node:zlib"
import ffmpeg from "@ffmpeg-installer/ffmpeg"

/*
 * Hostile files built on the fly, small on disk and in memory while built: images that decode to
 * gigabytes, animations of thousands of frames, and short test clips.
 */

const pngChunk = (type: string, data: Buffer) => {
  const out = Buffer.alloc(12 + data.length)
  out.writeUInt32BE(data.length, 0)
  out.write(type, 4, "latin1")
  data.copy(out, 8)
  out.writeUInt32BE(crc32(out.subarray(4, 8 + data.length)), 8 + data.length)
  return out
}

/** A zlib stream of `size` zero bytes: one fully flushed block of a megabyte, repeated (no buffer of `size`). */
const zlibOfZeros = (size: number) => {
  const BLOCK = 1 << 20
  const block = deflateRawSync(Buffer.alloc(BLOCK), { level: 9, finishFlush: constants.Z_FULL_FLUSH })
  const whole = Math.floor(size / BLOCK)
  const tail = deflateRawSync(Buffer.alloc(size - whole * BLOCK), { level: 9 })
  // Adler-32 of zeros: a = 1, b = size (mod 65521).
  const adler = Buffer.alloc(4)
  adler.writeUInt32BE(((size % 65521) * 65536 + 1) >>> 0)
  return Buffer.concat([Buffer.from([0x78, 0xda]), ...Array.from({ length: whole }, () => block), tail, adler])
}

const colourTypes = { gray: [0, 1], rgb: [2, 3], rgba: [6, 4] } as const

/**
 * A PNG of one flat colour (transparent black): 16383 x 16383 16-bit RGBA is 2 MB on disk and 2 GB
 * decoded, built in tens of milliseconds.
 */
export const flatPng = (width: number, height: number, bitDepth: 8 | 16, colour: keyof typeof colourTypes) => {
  const [type, channels] = colourTypes[colour]
  const ihdr = Buffer.alloc(13)
  ihdr.writeUInt32BE(width, 0)
  ihdr.writeUInt32BE(height, 4)
  ihdr[8] = bitDepth
  ihdr[9] = type
  const row = 1 + width * channels * (bitDepth / 8)
  return Buffer.concat([
    Buffer.from([137, 80, 78, 71, 13, 10, 26, 10]),
    pngChunk("IHDR", ihdr),
    pngChunk("IDAT", zlibOfZeros(row * height)),
    pngChunk("IEND", Buffer.alloc(0))
  ])
}

const repeat = (unit: Buffer, times: number) => {
  const out = Buffer.allocUnsafe(unit.length * times)
  for (let at = 0; at < out.length; at += unit.length) unit.copy(out, at)
  return out
}

/** An animated GIF on a `width` x `height` screen whose `frames` frames are each one white pixel. */
export const animatedGif = (width: number, height: number, frames: number) => {
  const screen = Buffer.from([
    ...Buffer.from("GIF89a"),
    width & 255,
    width >> 8,
    height & 255,
    height >> 8,
    0x80,
    0,
    0,
    0,
    0,
    0,
    255,
    255,
    255
  ])
  const loop = Buffer.from([0x21, 0xff, 0x0b, ...Buffer.from("NETSCAPE2.0"), 3, 1, 0, 0, 0])
  // Graphic control (10 ms), a 1x1 image descriptor, LZW code size 2 and one data sub-block.
  const frame = Buffer.from([0x21, 0xf9, 4, 0, 1, 0, 0, 0, 0x2c, 0, 0, 0, 0, 1, 0, 1, 0, 0, 2, 2, 0x44, 0x01, 0])
  return Buffer.concat([screen, loop, repeat(frame, frames), Buffer.from([0x3b])])
}

const riffChunk = (type: string, data: Buffer) => {
  const size = Buffer.alloc(4)
  size.writeUInt32LE(data.length)
  return Buffer.concat([Buffer.from(type, "latin1"), size, data, Buffer.alloc(data.length & 1)])
}
const u24 = (n: number) => Buffer.from([n & 255, (n >> 8) & 255, (n >> 16) & 255])
// A lossless 1x1 white WebP's VP8L chunk (what sharp writes for one white pixel).
const onePixelVp8l = Buffer.from("5650384c110000002f0000000007d0fffef7bfff8188e87f0000", "hex")

/** An animated WebP on a `width` x `height` canvas whose `frames` frames are each one white pixel. */
export const animatedWebp = (width: number, height: number, frames: number) => {
  const vp8x = riffChunk("VP8X", Buffer.concat([Buffer.from([0x02, 0, 0, 0]), u24(width - 1), u24(height - 1)]))
  const anim = riffChunk("ANIM", Buffer.alloc(6))
  const frame = riffChunk(
    "ANMF",
    Buffer.concat([u24(0), u24(0), u24(0), u24(0), u24(100), Buffer.from([0]), onePixelVp8l])
  )
  const body = Buffer.concat([Buffer.from("WEBP"), vp8x, anim, repeat(frame, frames)])
  return Buffer.concat([riffChunk("RIFF", body).subarray(0, 8), body])
}

/** A test-pattern clip made by ffmpeg into `dir/name` with the given output options. */
export const clip = (dir: string, name: string, size: string, seconds: number, args: ReadonlyArray<string>) => {
  const path = join(dir, name)
  execFileSync(ffmpeg.path, [
    "-v",
    "error",
    "-y",
    "-f",
    "lavfi",
    "-i",
    `testsrc=size=${size}:rate=15`,
    "-t",
    String(seconds),
    ...args,
    path
  ])
  return readFileSync(path)
}

export const h264 = ["-pix_fmt", "yuv420p", "-c:v", "libx264", "-preset", "ultrafast"]
