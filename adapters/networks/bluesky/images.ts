import sharp, { type OutputInfo } from "sharp"

/** Bluesky's image blob limit as its app applies it (the lexicon now allows 2 MB; older AppViews refuse over 1 MB). */
export const IMAGE_MAX_BYTES = 1_000_000
/** Longest side Bluesky's app uploads; larger is only bytes. */
const MAX_SIDE = 2000
const JPEG_QUALITIES = [90, 82, 75, 68, 60, 50, 40]

export interface FittedImage {
  readonly bytes: Uint8Array
  readonly mimeType: string
  readonly width: number
  readonly height: number
}

const fitted = (output: { data: Buffer; info: OutputInfo }, mimeType: string): FittedImage => ({
  bytes: new Uint8Array(output.data.buffer, output.data.byteOffset, output.data.length), mimeType, width: output.info.width, height: output.info.height
})

/**
 * The image re-encoded for Bluesky, under `maxBytes`, aspect kept: turned upright (EXIF orientation),
 * metadata dropped (no GPS position leaves Herald), at most 2000 px a side; PNG and WebP stay as they
 * are when small enough, otherwise JPEG at falling quality, then smaller, until it fits.
 */
export const fitImage = async (input: Uint8Array, maxBytes = IMAGE_MAX_BYTES): Promise<FittedImage> => {
  const format = (await sharp(input).metadata()).format
  const upright = sharp(input, { failOn: "error" }).rotate().resize({ width: MAX_SIDE, height: MAX_SIDE, fit: "inside", withoutEnlargement: true })
  if (format === "png" || format === "webp") {
    const kept = await upright.clone().toFormat(format).toBuffer({ resolveWithObject: true })
    if (kept.data.length <= maxBytes) return fitted(kept, `image/${format}`)
  }
  // Decoded once; every attempt encodes from these pixels.
  const pixels = await upright.flatten({ background: "#ffffff" }).raw().toBuffer({ resolveWithObject: true })
  const raw = { width: pixels.info.width, height: pixels.info.height, channels: pixels.info.channels }
  for (let scale = 1; Math.max(raw.width, raw.height) * scale >= 64; scale *= 0.75) {
    for (const quality of JPEG_QUALITIES) {
      const side = Math.round(Math.max(raw.width, raw.height) * scale)
      const jpeg = await sharp(pixels.data, { raw }).resize({ width: side, height: side, fit: "inside" }).jpeg({ quality, mozjpeg: true }).toBuffer({ resolveWithObject: true })
      if (jpeg.data.length <= maxBytes) return fitted(jpeg, "image/jpeg")
    }
  }
  throw new Error(`The image cannot be made smaller than ${maxBytes} bytes.`)
}
