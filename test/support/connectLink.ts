/**
 * Opens a connect link as a person's browser does: Herald's start page (which names the workspace and
 * who asked), then its Continue button. Answers where the button leads (the network's consent screen,
 * or Herald's own form) and the cookie the rest of the flow must carry.
 */
export const continueConnectLink = async (url: string, headers: Record<string, string> = {}) => {
  const start = new URL(url)
  const opened = await fetch(url, { headers })
  const html = await opened.text()
  if (opened.status !== 200 || !html.includes(`action="${start.pathname}"`))
    throw new Error(`the connect link did not open Herald's start page (${opened.status}): ${html.slice(0, 300)}`)
  const continued = await fetch(`${start.origin}${start.pathname}`, {
    method: "POST",
    headers: { ...headers, origin: start.origin, "content-type": "application/x-www-form-urlencoded" },
    body: new URLSearchParams({ state: start.searchParams.get("state") ?? "" }),
    redirect: "manual"
  })
  const next = continued.headers.get("location")
  const cookie = continued.headers.get("set-cookie")?.split(";")[0]
  if (continued.status !== 303 || next === null || cookie === undefined)
    throw new Error(`Continue did not lead on (${continued.status}): ${(await continued.text()).slice(0, 300)}`)
  return { next, cookie, html }
}
