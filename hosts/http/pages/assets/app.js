// Herald's app for people: plain ES modules, no build step. This shell folds the navigation on a phone and
// loads the view's own module (fetched on that view only; the page preloads it); core.mjs holds what views share.
import * as core from "./core.mjs"

const { html, t } = core

// On a phone the navigation folds behind one button (app.css hides it below 600 px until opened); made
// here, so a page whose script did not run keeps its navigation in sight.
const menuButton = document.createElement("button")
const navigation = document.querySelector("header nav")
navigation.id = "app-nav"
Object.assign(menuButton, { type: "button", className: "menu-toggle secondary" })
menuButton.setAttribute("aria-expanded", "false")
menuButton.setAttribute("aria-controls", "app-nav")
menuButton.innerHTML =
  html`<svg width="18" height="18" viewBox="0 0 18 18" aria-hidden="true" focusable="false"><path d="M2 4h14M2 9h14M2 14h14" stroke="currentColor" stroke-width="2"/></svg>${t("nav.menu")}`.text
navigation.before(menuButton)
const openMenu = (open) => menuButton.setAttribute("aria-expanded", String(open))
menuButton.addEventListener("click", () => openMenu(menuButton.getAttribute("aria-expanded") !== "true"))
document.addEventListener("keydown", (event) => {
  if (event.key !== "Escape" || menuButton.getAttribute("aria-expanded") !== "true") return
  openMenu(false)
  menuButton.focus()
})

const views = {
  queue: async () => (await import("./queue.mjs")).queueView(),
  calendar: async () => (await import("./calendar.mjs")).calendarView(),
  // History draws with the app's helpers, given to it whole.
  posts: async () => (await import("./history.mjs")).historyView(core),
  accounts: async () => (await import("./accounts.mjs")).accountsView(),
  keys: async () => (await import("./keys.mjs")).keysView(),
  settings: async () => (await import("./settings.mjs")).settingsView()
}
views[document.body.dataset.view]?.()
