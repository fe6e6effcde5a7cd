// The approval queue's cards: a post as asked, its networks' previews (each cut where that network cuts it)
// and its forms (edit, reject, reschedule). queue.mjs draws them and handles what is done with them.
import { ago, html, mediaStrip, networkName, snippet, t, timeZone, toZoned, when } from "./core.mjs"
import { moreFields } from "./editParts.mjs"

/** A text as one network takes it: the part after the network's cut struck through, and said so for screen readers. */
const textOn = (text, network) =>
  text.fits
    ? html`${text.shown}`
    : html`${text.shown}<span class="cut" role="img" aria-label="${t("post.cut")}">✂</span><del>${text.rest}</del><span class="sr-only"> ${t("post.tooLong", { network })}</span>`

const networkCard = (post, n) => {
  const name = networkName(n.platform)
  const account = n.username === null ? "" : `@${n.username}`
  return html`<section class="network" aria-label="${name} ${account}">
<h3>${name} <span class="muted">${n.accountName ?? ""} ${account}</span></h3>
${n.mediaIds.join() === post.mediaIds.join() ? "" : mediaStrip({ mediaIds: n.mediaIds })}
<p class="text">${textOn(n.text, name)}</p>
<p class="count${n.text.fits ? "" : " over"}">${t("post.length", { length: n.text.length, limit: n.text.limit })}${n.text.fits ? "" : html` · ${t("post.tooLong", { network: name })}`}</p>
${
  n.thread.length > 0
    ? html`<h4>${t("post.thread")}</h4><ol class="thread">${n.thread.map((reply) => html`<li>${textOn(reply, name)} <span class="count${reply.fits ? "" : " over"}">${t("post.length", { length: reply.length, limit: reply.limit })}</span></li>`)}</ol>`
    : ""
}
${n.firstComment === null ? "" : html`<h4>${t("post.firstComment")}</h4><p class="comment">${textOn(n.firstComment, name)}</p>`}
${
  n.poll === null
    ? ""
    : html`<h4>${t("post.poll")}${n.poll.question ? html`: ${n.poll.question}` : ""}</h4><ul class="poll">${n.poll.options.map((o) => html`<li>${o}</li>`)}</ul><p class="muted">${t("post.pollDuration", { m: n.poll.durationMinutes })}</p>`
}
</section>`
}

/** Each network's length by its own counting (from the API's per-target advice), in one line above the buttons. */
const lengths = (item) =>
  html`<ul class="lengths" aria-label="${t("queue.targets")}">${item.networks.map(
    (n) =>
      html`<li class="${n.text.fits ? "" : "over"}">${networkName(n.platform)} ${t("post.length", { length: n.text.length, limit: n.text.limit })}${n.text.fits ? "" : html` <span class="sr-only">${t("post.tooLong", { network: networkName(n.platform) })}</span><span aria-hidden="true">✂</span>`}</li>`
  )}</ul>`

/** One asked post as a card, with the note the last thing done to it left (a refusal, "saved"). */
export const queueItem = (item, note) => {
  const { post } = item
  const by = post.createdBy
  const long = post.content.length > 600
  return html`<article class="post" tabindex="-1" data-id="${post.id}" data-version="${item.version}" aria-labelledby="h-${post.id}">
<div class="post-head"><input type="checkbox" class="pick" aria-label="${t("queue.select")}: ${snippet(post.content)}">
<p class="muted asked">${t("queue.askedBy", { name: by.name })} <span class="badge">${by.kind === "key" ? t("queue.viaKey") : t("queue.viaPerson")}</span> · ${ago(post.createdAt)}</p></div>
<h2 id="h-${post.id}" class="lead${long ? " clamped" : ""}">${post.content}</h2>
${long ? html`<button type="button" class="link" data-act="more" aria-expanded="false">${t("queue.more")}</button>` : ""}
${mediaStrip(post)}
<p class="muted goes">${post.scheduledFor === null ? t("queue.now") : t("queue.at", { when: when(post.scheduledFor) })}</p>
${note ? html`<p class="notice" role="alert">${note}</p>` : ""}
${lengths(item)}
<div class="actions"><button data-act="approve">${t("queue.approve")}</button> <button class="secondary" data-act="reject-open" aria-expanded="false">${t("queue.reject")}</button> <button class="secondary" data-act="edit-open" aria-expanded="false">${t("edit.open")}</button> <button class="secondary" data-act="schedule-open" aria-expanded="false">${t("queue.schedule")}</button></div>
<form class="edit" hidden><label>${t("edit.content")}<textarea name="content" rows="6" required>${post.content}</textarea></label>
<label>${t("edit.firstComment")}<textarea name="firstComment" rows="2">${post.firstComment ?? ""}</textarea></label>
${moreFields(post, { html, t })}
<div class="edit-error" aria-live="assertive"></div>
<p><button>${t("edit.save")}</button> <button type="button" class="secondary" data-act="close">${t("queue.cancel")}</button></p></form>
<form class="reject" hidden><label>${t("queue.reason")}<textarea name="reason" maxlength="1000" rows="4"></textarea></label>
<p><button class="danger">${t("queue.confirmReject")}</button> <button type="button" class="secondary" data-act="close">${t("queue.cancel")}</button></p></form>
<form class="schedule" hidden><label>${t("queue.newTime", { tz: timeZone })} <input type="datetime-local" name="when" required value="${toZoned(post.scheduledFor)}"></label>
<p><button>${t("queue.save")}</button> <button type="button" class="secondary" data-act="close">${t("queue.cancel")}</button></p></form>
<details class="previews"${item.networks.some((n) => !n.text.fits) ? " open" : ""}><summary>${t("queue.targets")}</summary>
<div class="networks">${item.networks.map((n) => networkCard(post, n))}</div></details>
</article>`
}
