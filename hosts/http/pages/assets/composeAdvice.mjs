// The advice beside the composer: each target's verdict from the dry run and how the post will read on its
// network, by the approval card's rules (the server's previewOn; app.js's networkCard draws the same parts).
import { html, networkName, Refusal, t } from "./composeParts.mjs"

/** A text as its network takes it: the part after the cut struck through, and said so for screen readers. */
const TextOn = ({ text, network }) =>
  text.fits
    ? html`${text.shown}`
    : html`${text.shown}<span class="cut" role="img" aria-label=${t("post.cut")}>✂</span><del>${text.rest}</del><span class="sr-only"> ${t("post.tooLong", { network })}</span>`

/** How the post will read on one network: its text cut at its limit, its media in carousel order, the thread numbered, the first comment under it. */
export const Preview = ({ preview, network }) => {
  const media = preview.mediaIds
  return html`<div class="preview">
${
  media.length > 0 &&
  html`<ol class="media" aria-label=${t("post.media")}>${media.map(
    (id, i) =>
      html`<li key=${id}><img src=${`/api/v1/media/${encodeURIComponent(id)}/preview`} alt=${t("post.mediaItem", { i: i + 1, n: media.length })} />${media.length > 1 ? html`<span aria-hidden="true">${i + 1}</span>` : ""}</li>`
  )}</ol>`
}
${preview.text.shown + preview.text.rest !== "" && html`<p class="text"><${TextOn} text=${preview.text} network=${network} /></p>`}
${
  preview.thread.length > 0 &&
  html`<h4>${t("post.thread")}</h4><ol class="thread">${preview.thread.map(
    (reply) =>
      html`<li><${TextOn} text=${reply} network=${network} /> <span class=${`count${reply.fits ? "" : " over"}`}>${t("post.length", { length: reply.length, limit: reply.limit })}</span></li>`
  )}</ol>`
}
${preview.firstComment !== null && html`<h4>${t("post.firstComment")}</h4><p class="comment"><${TextOn} text=${preview.firstComment} network=${network} /></p>`}
${
  preview.poll !== null &&
  html`<h4>${t("post.poll")}${preview.poll.question ? html`: ${preview.poll.question}` : ""}</h4><ul class="poll">${preview.poll.options.map((o) => html`<li>${o}</li>`)}</ul><p class="muted">${t("post.pollDuration", { m: preview.poll.durationMinutes })}</p>`
}
</div>`
}

/** Each target's advice from the dry run: ok or refused, its warnings, its length by its network's counting. */
// Focusable: beside the form on a wide screen it scrolls on its own, and the keyboard must reach that scroll.
export const Advice = ({ advice, accounts, busy }) => {
  if (advice === null)
    return html`<section class="advice" aria-labelledby="advice-title" tabindex="0"><h2 id="advice-title">${t("compose.advice")}</h2><p class="muted">${t("compose.adviceIdle")}</p></section>`
  const refused = advice.targets.filter((x) => !x.ok).length
  return html`<section class="advice" aria-labelledby="advice-title" tabindex="0" aria-busy=${busy ? "true" : "false"}>
<h2 id="advice-title">${t("compose.advice")}</h2>
<p class="advice-summary" aria-live="polite">${advice.targets.length === 0 ? t("compose.postRefused") : refused === 0 ? t("compose.allOk", { n: advice.targets.length }) : t("compose.someRefused", { n: refused })}</p>
${advice.warnings.length > 0 && html`<ul class="warnings">${advice.warnings.map((w) => html`<li lang="en">${w}</li>`)}</ul>`}
<ul class="targets-advice">${advice.targets.map((target) => {
    const account = accounts.find((a) => a.id === target.accountId)
    const name = networkName(target.platform)
    const over = target.length.used > target.length.limit
    return html`<li key=${target.accountId} class=${target.ok ? "ok" : "refused"} data-platform=${target.platform}>
<h3>${name} <span class="muted">@${account?.username ?? target.username}</span> <span class=${`badge ${target.ok ? "published" : "failed"}`}>${target.ok ? t("compose.ok") : t("compose.refused")}</span></h3>
<p class=${`count${over ? " over" : ""}`}>${t("post.length", { length: target.length.used, limit: target.length.limit })}${over ? ` · ${t("compose.tooLong", { network: name })}` : ""}</p>
${target.error && html`<p class="error"><${Refusal} error=${target.error} /></p>`}
${target.warnings.length > 0 && html`<ul class="warnings">${target.warnings.map((w) => html`<li lang="en">${w}</li>`)}</ul>`}
${target.preview && html`<${Preview} preview=${target.preview} network=${name} />`}
</li>`
  })}</ul>
</section>`
}
