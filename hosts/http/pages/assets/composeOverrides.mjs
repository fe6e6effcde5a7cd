// Per network: its own text, its own media (among the post's uploads, or none) and its own thread (the request's overrides).
import { FieldError, fieldProps, html, networkName, t, TextList } from "./composeParts.mjs"

/** A switch that gives a network its own value (starting from the post's) or takes it back. */
const Own = ({ on, label, onToggle }) =>
  html`<label class="own"><input type="checkbox" checked=${on} onChange=${onToggle} /> ${label}</label>`

const without = (map, key) => {
  const next = { ...map }
  delete next[key]
  return next
}

const MediaChoice = ({ platform, media, ids, onChange, errors }) => {
  const id = `override-${platform}-media`
  return html`<fieldset class="own-media" aria-describedby=${`${id}-error`}><legend>${t("compose.mediaOn", { network: networkName(platform) })}</legend>
${media.map(
  (
    m,
    i
  ) => html`<label key=${m.id} class="own-medium"><input type="checkbox" id=${`${id}-${i}`} checked=${ids.includes(m.id)} onChange=${() =>
    onChange(ids.includes(m.id) ? ids.filter((x) => x !== m.id) : [...ids, m.id])} />
<img src=${`/api/v1/media/${encodeURIComponent(m.id)}/preview`} alt="" /> ${i + 1}. ${m.name}</label>`
)}
<${FieldError} id=${`${id}-error`} errors=${errors} /></fieldset>`
}

export const PerNetwork = ({ platforms, draft, edit, errorsAt }) => {
  const done = draft.media.filter((m) => m.status === "done")
  return html`<fieldset class="overrides"><legend>${t("compose.perNetwork")}</legend>
${platforms.map((p) => {
  const network = networkName(p)
  const id = `override-${p}`
  const text = draft.overrides[p]
  const media = draft.mediaOverrides[p]
  const thread = draft.threadOverrides[p]
  return html`<div key=${p} class="field per-network">
<${Own} on=${text !== undefined} label=${t("compose.differentText", { network })} onToggle=${() =>
    edit({ overrides: text !== undefined ? without(draft.overrides, p) : { ...draft.overrides, [p]: draft.text } })} />
${text !== undefined && html`<label for=${id}>${t("compose.textOn", { network })}</label><textarea id=${id} rows="4" value=${text} onInput=${(e) => edit({ overrides: { ...draft.overrides, [p]: e.target.value } })} ...${fieldProps(id, errorsAt(id))}></textarea>`}
<${FieldError} id=${`${id}-error`} errors=${errorsAt(id)} />
${
  done.length > 0 &&
  html`<${Own} on=${media !== undefined} label=${t("compose.differentMedia", { network })} onToggle=${() =>
    edit({
      mediaOverrides:
        media !== undefined ? without(draft.mediaOverrides, p) : { ...draft.mediaOverrides, [p]: done.map((m) => m.id) }
    })} />`
}
${media !== undefined && done.length > 0 && html`<${MediaChoice} platform=${p} media=${done} ids=${media} errors=${errorsAt(`${id}-media`)} onChange=${(ids) => edit({ mediaOverrides: { ...draft.mediaOverrides, [p]: ids } })} />`}
<${Own} on=${thread !== undefined} label=${t("compose.differentThread", { network })} onToggle=${() =>
    edit({
      threadOverrides:
        thread !== undefined ? without(draft.threadOverrides, p) : { ...draft.threadOverrides, [p]: [...draft.thread] }
    })} />
${
  thread !== undefined &&
  html`<fieldset class="own-thread"><legend>${t("compose.threadOn", { network })}</legend>
<${TextList} id=${`${id}-reply`} items=${thread} multiline=${true} max=${20} label=${(n) => t("compose.replyOn", { n, network })} removeLabel=${(n) => t("compose.removeReplyOn", { n, network })} addLabel=${t("compose.addReply")} onChange=${(items) => edit({ threadOverrides: { ...draft.threadOverrides, [p]: items } })} errorsOf=${(i) => errorsAt(`${id}-thread-${i}`)} />
<${FieldError} id=${`${id}-thread-error`} errors=${errorsAt(`${id}-thread`)} /></fieldset>`
}</div>`
})}</fieldset>`
}
