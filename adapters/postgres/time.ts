/** The domain keeps times as epoch milliseconds; the database as timestamptz (a Date in the driver). */
export const toDate = (ms: number): Date => new Date(ms)

export const toDateOrNull = (ms: number | null): Date | null => (ms === null ? null : new Date(ms))

export const fromDate = (date: Date): number => date.getTime()

export const fromDateOrNull = (date: Date | null): number | null => (date === null ? null : date.getTime())

/** int8 columns and counts arrive as bigint. */
export const toNumber = (value: number | bigint | string): number => Number(value)

export const toNumberOrNull = (value: number | bigint | string | null): number | null =>
  value === null ? null : Number(value)
