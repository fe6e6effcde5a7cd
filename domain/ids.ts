/**
 * What an id Herald hands out can look like: a prefix, an underscore, letters and digits. Anything
 * else cannot name a record, so it is answered as not found without asking storage (which may
 * refuse bytes such as NUL outright).
 */
export const isWellFormedId = (id: string): boolean => /^[A-Za-z0-9_-]{1,128}$/.test(id)

/** PostgreSQL text cannot hold NUL; no field of a post or a name needs it. */
export const hasNul = (text: string): boolean => text.includes("\u0000")
