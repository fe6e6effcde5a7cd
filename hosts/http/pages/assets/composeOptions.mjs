// Each chosen network's own settings (reddit.subreddit, youtube.privacyStatus, ...), drawn from the forms the
// server derives from the contract's schemas (hosts/http/pages/networkOptionForms.ts): no network's fields here.
import { html, useEffect, useState } from "./vendor/preact-htm-3.1.1.mjs"
import { api, FieldError, fieldProps, networkName, t } from "./composeParts.mjs"

export const optionForms = JSON.parse(document.getElementById("network-options").textContent)

/** The field's id and error slot, from its path in the request (reddit.subreddit -> opt-reddit-subreddit). */
const idOf = (path) => `opt-${path.replace(/\./g, "-")}`
const pathsOf = (prefix, fields) =>
  fields.flatMap((f) => [
    `${prefix}.${f.name}`,
    ...(f.kind === "group" ? pathsOf(`${prefix}.${f.name}`, f.fields) : [])
  ])
const knownPaths = new Set(optionForms.flatMap((form) => [form.field, ...pathsOf(form.field, form.fields)]))

/** The slot of a refusal's field in a network's object (youtube.tags[3] -> the tags field), or null when it is none. */
export const optionSlot = (field) => {
  let path = field.replace(/\[\d+\]/g, "")
  if (!knownPaths.has(path.split(".")[0])) return null
  while (!knownPaths.has(path)) path = path.slice(0, path.lastIndexOf("."))
  return idOf(path)
}

/** Whether a field applies, by its served "shown when" rule: the deciding field's value (all options), the post's image. */
export const applies = (field, options, hasImage) => {
  const rule = field.shownWhen
  if (rule === undefined) return true
  const value = rule.path.split(".").reduce((o, k) => o?.[k], options) ?? ""
  if (value === "" && rule.unsetOnlyWithoutImage && hasImage) return false
  return rule.in.includes(value)
}

/** One form's value as the request takes it: blanks and fields that do not apply left out, a group only when something in it is set, tags split at commas. */
const requestValue = (fields, values = {}, shown = () => true) => {
  const out = {}
  for (const f of fields) {
    const v = values[f.name]
    if (!shown(f)) continue
    if (f.kind === "group") {
      const inner = requestValue(f.fields, v, shown)
      if (inner !== null) out[f.name] = inner
    } else if (f.kind === "toggle") {
      if (v === true) out[f.name] = true
    } else if (f.kind === "list") {
      const items = String(v ?? "")
        .split(/[,、\n]/)
        .map((s) => s.trim())
        .filter((s) => s !== "")
      if (items.length > 0) out[f.name] = items
    } else if (typeof v === "string" && v.trim() !== "") out[f.name] = v.trim()
  }
  return Object.keys(out).length > 0 ? out : null
}

/** The request's network objects for the chosen platforms (e.g. {reddit: {subreddit}}), from what was filled in and applies. */
export const optionsBody = (platforms, values, hasImageOn = () => false) =>
  Object.fromEntries(
    optionForms
      .filter((form) => platforms.includes(form.platform))
      .map((form) => [
        form.field,
        requestValue(form.fields, values[form.field], (f) => applies(f, values, hasImageOn(form.platform)))
      ])
      .filter(([, value]) => value !== null)
  )

/** Where the account's posts can go (Pinterest's boards, Reddit's subreddits), offered while typing; typing stays allowed. */
const useBoards = (accountId) => {
  const [boards, setBoards] = useState([])
  useEffect(() => {
    if (!accountId) return
    let live = true
    api(`/accounts/${encodeURIComponent(accountId)}/boards`).then((result) => {
      if (live && result.ok) setBoards(result.data.boards)
    })
    return () => {
      live = false
    }
  }, [accountId])
  return boards
}

const Field = ({ path, field, value, onChange, errorsAt, accountId, shown }) => {
  if (!shown(field)) return ""
  const id = idOf(path)
  const label = t(`opt.${path}`)
  const errors = errorsAt(id)
  const required = field.required ? html` <span class="muted">(${t("compose.required")})</span>` : ""
  if (field.kind === "group")
    return html`<fieldset class="option-group" aria-describedby=${`${id}-error`}><legend>${label}</legend>
${field.fields.map((f) => html`<${Field} key=${f.name} path=${`${path}.${f.name}`} field=${f} value=${value?.[f.name]} onChange=${(v) => onChange({ ...(value ?? {}), [f.name]: v })} errorsAt=${errorsAt} accountId=${accountId} shown=${shown} />`)}
<${FieldError} id=${`${id}-error`} errors=${errors} /></fieldset>`
  if (field.kind === "toggle")
    return html`<div class="field option"><label><input type="checkbox" id=${id} checked=${value === true} onChange=${(e) => onChange(e.target.checked)} ...${fieldProps(id, errors)} /> ${label}</label>
<${FieldError} id=${`${id}-error`} errors=${errors} /></div>`
  const props = {
    id,
    value: value ?? "",
    required: field.required,
    ...fieldProps(id, errors)
  }
  const input =
    field.kind === "choice"
      ? html`<select ...${props} onChange=${(e) => onChange(e.target.value)}><option value="">${t("compose.optionDefault")}</option>${field.values.map(
          (v) => html`<option value=${v}>${t(`opt.${path}.${v}`)}</option>`
        )}</select>`
      : field.input === "boards"
        ? html`<${BoardInput} props=${props} accountId=${accountId} onChange=${onChange} />`
        : html`<input type=${field.kind === "list" ? "text" : field.input} ...${props} onInput=${(e) => onChange(e.target.value)} />`
  return html`<div class="field option"><label for=${id}>${label}${required}</label> ${input}
<${FieldError} id=${`${id}-error`} errors=${errors} /></div>`
}

const BoardInput = ({ props, accountId, onChange }) => {
  const boards = useBoards(accountId)
  const list = `${props.id}-choices`
  return html`<input type="text" list=${list} autocomplete="off" ...${props} onInput=${(e) => onChange(e.target.value)} />
<datalist id=${list}>${boards.map((b) => html`<option value=${b.id}>${b.name}</option>`)}</datalist>`
}

/** The settings of each chosen network that has its own object, one fieldset per network. */
export const NetworkOptions = ({ accounts, chosen, values, onChange, errorsAt, hasImageOn }) => {
  const chosenAccounts = accounts.filter((a) => chosen.includes(a.id))
  const forms = optionForms.filter((form) => chosenAccounts.some((a) => a.platform === form.platform))
  if (forms.length === 0) return ""
  return html`<section class="network-options" aria-labelledby="options-title"><h2 id="options-title">${t("compose.networkOptions")}</h2>
${forms.map((form) => {
  const accountId = chosenAccounts.find((a) => a.platform === form.platform)?.id
  const own = values[form.field] ?? {}
  const id = idOf(form.field)
  const shown = (f) => applies(f, values, hasImageOn(form.platform))
  return html`<fieldset key=${form.field} class="options" data-platform=${form.platform}><legend>${t("compose.optionsOn", { network: networkName(form.platform) })}</legend>
${form.fields.map((f) => html`<${Field} key=${f.name} path=${`${form.field}.${f.name}`} field=${f} value=${own[f.name]} onChange=${(v) => onChange({ ...values, [form.field]: { ...own, [f.name]: v } })} errorsAt=${errorsAt} accountId=${accountId} shown=${shown} />`)}
<${FieldError} id=${`${id}-error`} errors=${errorsAt(id)} /></fieldset>`
})}</section>`
}
