import { AppBskyRichtextFacet, RichText } from "@atproto/api"
import { Effect } from "effect"

export interface DetectedText {
  readonly facets: ReadonlyArray<AppBskyRichtextFacet.Main>
  /** The first link, for a link card. */
  readonly firstLink: string | null
}

/**
 * Links, mentions and hashtags as facets (UTF-8 byte ranges; Bluesky links nothing by itself).
 * Mentions name accounts by DID: each handle is resolved with `resolveDid`, and one that does not
 * resolve stays plain text (an empty DID would make the PDS refuse the whole post).
 */
export const detectFacets = <E>(
  text: string,
  resolveDid: (handle: string) => Effect.Effect<string | null, E>
): Effect.Effect<DetectedText, E> =>
  Effect.gen(function* () {
    const rich = new RichText({ text })
    rich.detectFacetsWithoutResolution()
    const detected = rich.facets ?? []
    const handles = [
      ...new Set(detected.flatMap((f) => f.features.filter(AppBskyRichtextFacet.isMention).map((m) => m.did)))
    ]
    const dids = new Map(
      yield* Effect.forEach(handles, (handle) => Effect.map(resolveDid(handle), (did) => [handle, did] as const), {
        concurrency: 4
      })
    )
    const facets = detected.flatMap((facet): ReadonlyArray<AppBskyRichtextFacet.Main> => {
      const features = facet.features.flatMap((feature) => {
        if (!AppBskyRichtextFacet.isMention(feature)) return [feature]
        const did = dids.get(feature.did)
        return did ? [{ ...feature, did }] : []
      })
      return features.length === 0 ? [] : [{ ...facet, features }]
    })
    const link = facets.flatMap((f) => f.features.filter(AppBskyRichtextFacet.isLink))[0]
    return { facets, firstLink: link?.uri ?? null }
  })
