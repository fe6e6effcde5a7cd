import { type HeraldError, invalidFields } from "../../domain/errors.ts"

export const badBase64 = () => invalidFields(["dataBase64"], "dataBase64 is not valid base64.")

const notBase64 = /[^A-Za-z0-9+/=_-]/
const notPadding = /[^=]/

/** Base64 text in, bytes out, four characters at a time; whitespace and a data: URL prefix are skipped. */
export class Base64Decoder {
  private pending = ""
  private padded = false
  // Undecided until the first characters show whether a data: URL prefix is there.
  private lead: string | null = ""

  /** `chars` are the string's raw bytes with JSON escapes already resolved. */
  push(chars: Uint8Array, out: Array<Uint8Array>): HeraldError | null {
    let text = Buffer.from(chars.buffer, chars.byteOffset, chars.length).toString("latin1")
    if (this.lead !== null) {
      const lead = this.lead + text
      if (lead.startsWith("data:")) {
        const comma = lead.indexOf(",")
        if (comma < 0) {
          if (lead.length > 256) return badBase64()
          this.lead = lead
          return null
        }
        text = lead.slice(comma + 1)
      } else if ("data:".startsWith(lead)) {
        this.lead = lead
        return null
      } else text = lead
      this.lead = null
    }
    if (notBase64.test(text)) {
      text = text.replace(/[ \t\r\n]+/g, "")
      if (notBase64.test(text)) return badBase64()
    }
    const pad = text.indexOf("=")
    if ((this.padded && text.length > 0 && notPadding.test(text)) || (pad >= 0 && notPadding.test(text.slice(pad))))
      return badBase64()
    if (pad >= 0) this.padded = true
    const all = this.pending + text
    const whole = all.length - (all.length % 4)
    if (whole > 0) out.push(new Uint8Array(Buffer.from(all.slice(0, whole), "base64")))
    this.pending = all.slice(whole)
    return null
  }

  finish(out: Array<Uint8Array>): HeraldError | null {
    const rest = (this.lead ?? "") + this.pending
    if (rest.startsWith("data:") || rest.replace(/=+$/, "").length % 4 === 1) return badBase64()
    if (rest.length > 0) out.push(new Uint8Array(Buffer.from(rest, "base64")))
    return null
  }
}
