import sharp, { type OutputInfo } from "sharp"

/** Bluesky's image blob limit as its app applies it (the lexicon now allows 2 MB; older AppViews refuse over 1 MB). */
export const IMAGE_MAX_BYTES = 1_000_000
/** Longest side Bluesky's app uploads; larger is only bytes. */
const MAX_SIDE = 2000
const MIN_QUALITY = 40
const MAX_QUALITY = 90
/** The search stops when the best fitting quality is known to within this many steps. */
const QUALITY_STEP = 5

export interface FittedImage {
  readonly bytes: Uint8Array
  readonly mimeType: string
  readonly width: number
  readonly height: number
}

const fitted = (output: { data: Buffer; info: OutputInfo }, mimeType: string): FittedImage => ({
  bytes: new Uint8Array(output.data.buffer, output.data.byteOffset, output.data.length),
  mimeType,
  width: output.info.width,
  height: output.info.height
})

/**
 * The image re-encoded for Bluesky, under `maxBytes`, aspect kept: turned upright (EXIF orientation),
 * metadata dropped (no GPS position leaves Herald), at most 2000 px a side; PNG and WebP stay as they
 * are when small enough, otherwise JPEG at the best quality that fits, then smaller, until it fits.
 */
export const fitImage = async (input: Uint8Array, maxBytes = IMAGE_MAX_BYTES): Promise<FittedImage> => {
  const format = (await sharp(input).metadata()).format
  const upright = sharp(input, { failOn: "error" })
    .rotate()
    .resize({ width: MAX_SIDE, height: MAX_SIDE, fit: "inside", withoutEnlargement: true })
  if (format === "png" || format === "webp") {
    const kept = await upright.clone().toFormat(format).toBuffer({ resolveWithObject: true })
    if (kept.data.length <= maxBytes) return fitted(kept, `image/${format}`)
  }
  // Decoded once; every attempt encodes from these pixels. Most photos fit at the top quality (one
  // encode); otherwise the best quality that fits is searched, and if even the lowest does not, smaller.
  const pixels = await upright.flatten({ background: "#ffffff" }).raw().toBuffer({ resolveWithObject: true })
  const raw = { width: pixels.info.width, height: pixels.info.height, channels: pixels.info.channels }
  for (let scale = 1; Math.max(raw.width, raw.height) * scale >= 64; scale *= 0.75) {
    const side = Math.round(Math.max(raw.width, raw.height) * scale)
    const fitsAt = async (quality: number) => {
      const out = await sharp(pixels.data, { raw })
        .resize({ width: side, height: side, fit: "inside" })
        .jpeg({ quality })
        .toBuffer({ resolveWithObject: true })
      return out.data.length <= maxBytes ? out : null
    }
    let best = await fitsAt(MAX_QUALITY)
    if (best === null && (best = await fitsAt(MIN_QUALITY)) !== null) {
      for (let low = MIN_QUALITY, high = MAX_QUALITY - 1; high - low > QUALITY_STEP; ) {
        const middle = Math.floor((low + high + 1) / 2)
        const attempt = await fitsAt(middle)
        if (attempt === null) high = middle - 1
        else [best, low] = [attempt, middle]
      }
    }
    if (best !== null) return fitted(best, "image/jpeg")
  }
  throw new Error(`The image cannot be made smaller than ${maxBytes} bytes.`)
}
