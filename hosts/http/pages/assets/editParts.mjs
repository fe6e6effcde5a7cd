// The parts of a waiting post an approval card's Edit changes beside its text: the thread, a poll and which
// media stay. They go to the same PATCH /posts/{id} as the text, and only when changed; the API's rules judge.

const lines = (text) =>
  text
    .split("\n")
    .map((s) => s.trim())
    .filter((s) => s !== "")

/** The form's fields for a post's thread (each reply, and one more to add), poll and media, folded under one summary. */
export const moreFields = (post, { html, t }) => {
  const changed = post.thread.length > 0 || post.poll !== null
  return html`<details class="edit-more"${changed ? " open" : ""}><summary>${t("edit.more")}</summary>
<fieldset><legend>${t("post.thread")}</legend>${[...post.thread, ""].map(
    (reply, i) =>
      html`<label>${t(i < post.thread.length ? "edit.reply" : "edit.newReply", { i: i + 1 })}<textarea name="thread" rows="2">${reply}</textarea></label>`
  )}<p class="muted">${t("edit.threadHelp")}</p></fieldset>
<fieldset><legend>${t("post.poll")}</legend><label>${t("edit.pollOptions")}<textarea name="pollOptions" rows="3">${(post.poll?.options ?? []).join("\n")}</textarea></label>
<label>${t("edit.pollMinutes")} <input type="number" name="pollMinutes" min="5" step="1" value="${post.poll?.durationMinutes ?? 1440}"></label>
<label>${t("edit.pollQuestion")} <input name="pollQuestion" maxlength="140" value="${post.poll?.question ?? ""}"></label></fieldset>
${
  post.mediaIds.length === 0
    ? ""
    : html`<fieldset><legend>${t("post.media")}</legend><p class="muted">${t("edit.mediaHelp")}</p><ul class="edit-media">${post.mediaIds.map(
        (id, i) =>
          html`<li><label><input type="checkbox" name="media" value="${id}" checked> <img src="/api/v1/media/${encodeURIComponent(id)}/preview" alt="" height="72" loading="lazy"> ${t("post.mediaItem", { i: i + 1, n: post.mediaIds.length })}</label></li>`
      )}</ul></fieldset>`
}</details>`
}

/** What the form changes of the thread, poll and media, as PATCH fields (null clears one). */
export const changedParts = (post, form) => {
  const body = {}
  const thread = form
    .getAll("thread")
    .map((s) => String(s).trim())
    .filter((s) => s !== "")
  if (thread.join("\u0000") !== post.thread.join("\u0000")) body.thread = thread.length === 0 ? null : thread
  const options = lines(String(form.get("pollOptions") ?? ""))
  const question = String(form.get("pollQuestion") ?? "").trim()
  const poll =
    options.length === 0
      ? null
      : { options, durationMinutes: Number(form.get("pollMinutes")), question: question === "" ? null : question }
  const before =
    post.poll === null
      ? null
      : { options: post.poll.options, durationMinutes: post.poll.durationMinutes, question: post.poll.question ?? null }
  if (JSON.stringify(poll) !== JSON.stringify(before)) body.poll = poll
  if (post.mediaIds.length > 0) {
    const kept = form.getAll("media").map(String)
    if (kept.join() !== post.mediaIds.join()) body.mediaIds = kept.length === 0 ? null : kept
  }
  return body
}

/** A whole edit form (text, first comment, then the parts above) for History's scheduled posts (the queue's card has its own). */
export const editForm = (post, { html, t }) =>
  html`<form class="edit" hidden><label>${t("edit.content")}<textarea name="content" rows="5" required>${post.content}</textarea></label>
<label>${t("edit.firstComment")}<textarea name="firstComment" rows="2">${post.firstComment ?? ""}</textarea></label>
${moreFields(post, { html, t })}
<div class="edit-error" aria-live="assertive"></div>
<p><button>${t("edit.save")}</button> <button type="button" class="secondary" data-act="edit-close">${t("queue.cancel")}</button></p></form>`

/** Everything an edit form changes (text, first comment, thread, poll, media), as PATCH fields. */
export const changedPost = (post, form) => {
  const body = {}
  const content = String(form.get("content") ?? "")
  const comment = String(form.get("firstComment") ?? "").trim()
  if (content !== post.content) body.content = content
  if ((post.firstComment ?? "") !== comment) body.firstComment = comment === "" ? null : comment
  return Object.assign(body, changedParts(post, form))
}
