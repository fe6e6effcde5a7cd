import { open } from "node:fs/promises"

/*
 * Whether a video file ends where its container says it does. MP4/MOV boxes, Matroska/WebM
 * elements and AVI chunks declare their sizes up front, so a file cut short declares more bytes
 * than it has, wherever the cut falls. ffprobe reads such a file without complaint when its index
 * comes first (a "fast start" MP4 cut after 3,000 bytes still shows its streams and duration).
 * Only headers are read: a few reads for a 100 MB file. MPEG program streams are walked pack by
 * pack (they have no sizes up front). A cut exactly between two top-level units (MP4 fragments,
 * MPEG packs) leaves a shorter whole file, which is fine; so is an unknown size (live recordings).
 */

/** The file's size and how many bytes its container declares, when they disagree; null when it ends where it says. */
export interface Truncation {
  readonly fileBytes: number
  readonly declaredBytes: number
}

interface Reader {
  readonly size: number
  /** `length` bytes at `at`, or null when the file ends before them. */
  readonly read: (at: number, length: number) => Promise<Buffer | null>
}

const WINDOW = 64 * 1024

const reader = async (path: string) => {
  const file = await open(path, "r")
  const size = (await file.stat()).size
  const window = Buffer.allocUnsafe(WINDOW)
  let start = 0
  let end = 0
  const read = async (at: number, length: number): Promise<Buffer | null> => {
    if (at + length > size) return null
    if (at < start || at + length > end) {
      const { bytesRead } = await file.read(window, 0, WINDOW, at)
      start = at
      end = at + bytesRead
    }
    return at + length <= end ? window.subarray(at - start, at - start + length) : null
  }
  return { reader: { size, read } satisfies Reader, close: () => file.close() }
}

const printable = (b: Buffer) => b.every((c) => c >= 0x20 && c < 0x7f)
const cut = (r: Reader, declaredBytes: number): Truncation | null =>
  declaredBytes > r.size ? { fileBytes: r.size, declaredBytes } : null

/** ISO base media (MP4, MOV, M4V): top-level boxes, each with a 32-bit or 64-bit size. */
const isoBoxes = async (r: Reader): Promise<Truncation | null> => {
  let at = 0
  while (at + 8 <= r.size) {
    const head = (await r.read(at, 16)) ?? (await r.read(at, 8))!
    // Anything that is not a box (padding, a vendor's trailer) ends the walk.
    if (!printable(head.subarray(4, 8))) return null
    const small = head.readUInt32BE(0)
    if (small === 0) return null // "to the end of the file"
    const size = small === 1 ? (head.length < 16 ? Infinity : Number(head.readBigUInt64BE(8))) : small
    if (size < 8) return null
    if (at + size > r.size) return cut(r, at + size)
    at += size
  }
  return null
}

/** An EBML variable-length number at `at`: its length, its value, and whether it is "unknown" (all ones). */
const vint = (b: Buffer, at: number, keepMarker: boolean) => {
  const first = b[at]
  if (first === undefined || first === 0) return null
  const length = Math.clz32(first) - 23
  if (at + length > b.length) return null
  let value = keepMarker ? first : first & (0xff >> length)
  let ones = value === 0xff >> length
  for (let i = 1; i < length; i++) {
    value = value * 256 + b[at + i]
    ones &&= b[at + i] === 0xff
  }
  return { length, value, unknown: !keepMarker && ones }
}

/** Matroska and WebM: the EBML header, then a Segment whose size covers the rest. */
const ebml = async (r: Reader): Promise<Truncation | null> => {
  let at = 0
  while (at < r.size) {
    const head = (await r.read(at, Math.min(16, r.size - at)))!
    const id = vint(head, 0, true)
    const size = id && vint(head, id.length, false)
    if (!id || !size || size.unknown) return null
    const end = at + id.length + size.length + size.value
    if (end > r.size) return cut(r, end)
    if (id.value === 0x18538067) return null // the Segment fits: the file is whole
    at = end
  }
  return null
}

/** AVI: RIFF chunks (the file's own and, past 1 GB, AVIX extensions), each with its size. */
const riff = async (r: Reader): Promise<Truncation | null> => {
  let at = 0
  while (at + 8 <= r.size) {
    const head = (await r.read(at, 8))!
    if (!printable(head.subarray(0, 4))) return null
    const end = at + 8 + head.readUInt32LE(4)
    if (end > r.size) return cut(r, end)
    at = end + (end & 1)
  }
  return null
}

/** MPEG program stream: packs, each a header and packets with 16-bit lengths, to the end code. */
const mpegPs = async (r: Reader): Promise<Truncation | null> => {
  let at = 0
  while (at + 4 <= r.size) {
    const head = (await r.read(at, Math.min(14, r.size - at)))!
    if (head[0] !== 0 || head[1] !== 0 || head[2] !== 1) return null // lost sync: cannot tell
    const code = head[3]
    if (code === 0xb9) return null // program end
    let end: number
    if (code === 0xba) {
      // MPEG-2 packs are 14 bytes and stuffing, MPEG-1 packs 12.
      if (head.length < 5) return cut(r, at + 12)
      const mpeg2 = (head[4] & 0xc0) === 0x40
      if (mpeg2 && head.length < 14) return cut(r, at + 14)
      end = at + (mpeg2 ? 14 + (head[13] & 7) : 12)
    } else if (code >= 0xbb) {
      if (head.length < 6) return cut(r, at + 6)
      end = at + 6 + head.readUInt16BE(4)
    } else return null
    if (end > r.size) return cut(r, end)
    at = end
  }
  return null
}

const walkers: Record<string, (r: Reader) => Promise<Truncation | null>> = {
  "video/mp4": isoBoxes,
  "video/quicktime": isoBoxes,
  "video/x-m4v": isoBoxes,
  "video/webm": ebml,
  "video/x-matroska": ebml,
  "video/x-msvideo": riff,
  "video/vnd.avi": riff,
  "video/mpeg": mpegPs,
  "video/MP1S": mpegPs,
  "video/MP2P": mpegPs
}

/** Where a video file is shorter than its container declares; null when it is whole or the type has no sizes to check. */
export const truncation = async (path: string, mimeType: string): Promise<Truncation | null> => {
  const walk = walkers[mimeType]
  if (walk === undefined) return null
  const { reader: r, close } = await reader(path)
  try {
    return await walk(r)
  } finally {
    await close()
  }
}
