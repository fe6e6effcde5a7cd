import type { Statement } from "effect/sql"

/**
 * Runs a statement planned for its tables as they are now (unprepared). A prepared statement soon
 * runs a generic plan made once per connection, and one made while a queue table was nearly empty
 * stays until the table is analyzed again: the job lease's became a sequential scan and sort of the
 * whole table (19.7 ms at 200,000 jobs), the delivery lease's anti-join read the whole ordering index
 * for every candidate (5.3 s for one lease with 5,000 deliveries due). For the queues' leases and the
 * deliveries' record, whose tables swing from empty to large; planning costs about a millisecond.
 */
export const planned = <A>(statement: Statement.Statement<A>) => statement.unprepared
