package io.protobench.bench.lab.writes

import io.protobench.bench.design.Sample
import io.protobench.bench.lab.clients.DataServerClient
import io.protobench.bench.measure.Figure
import io.protobench.bench.measure.Figures
import io.protobench.bench.measure.Flag
import io.protobench.bench.scenario.Cell
import io.protobench.bench.scenario.Target
import io.protobench.contract.members.MemberCounts

/**
 * The database's side of one member-creation trial, from the data-server's
 * `/internal/members`: emptied just before the load driver's run starts (every arm writes
 * into the same empty table, and an in-memory database holds one trial's rows rather than
 * a run's) and read just after that run has ended, with no creation under way. Every
 * creation the driver saw confirmed must be a row and every new row a confirmed creation
 * (no lost or phantom writes). The read after also carries the database time of the
 * trial's transactions: emptying started a new interval.
 */
class MemberLedger(
    /** Empties the table and answers the counts after it. */
    private val clear: () -> MemberCounts,
    /** `/internal/members` now (each read starts a new database-time interval). */
    private val counts: () -> MemberCounts,
    /** Members one confirmed request creates: the batch, or none for the null hop. */
    private val membersPerRequest: Int,
) {
    private var before: MemberCounts? = null

    /** Empties the table before the trial (and starts the database-time interval). */
    fun open() {
        before = clear()
    }

    /** The trial's rows and database time, and a flag when the table does not add up; [confirmedRequests]: the driver's correct answers. */
    fun close(confirmedRequests: Long): Pair<Figures, List<Flag>> {
        val start = checkNotNull(before) { "open() before close()" }
        val end = counts()
        val rows = end.rows - start.rows
        val committed = end.created - start.created
        val confirmed = confirmedRequests * membersPerRequest
        val db = end.dbTime
        val figures = Figures.of(
            Figure.ROWS_WRITTEN to rows.toDouble(),
            Figure.DB_MS_PER_REQ to if (db.count > 0 && confirmedRequests > 0) db.meanMs * db.count / confirmedRequests else null,
            Figure.DB_TX_P99 to if (db.count > 0) db.p99Ms else null,
        )
        val flags = if (rows == confirmed && committed == rows) emptyList() else listOf(Flag.RowsMismatch(confirmed, rows, committed))
        return figures to flags
    }

    /** [sample] with the table's figures and flags added, its correct answers the requests confirmed. */
    fun closeInto(sample: Sample): Sample {
        val (figures, flags) = close(sample.correctAnswers)
        return sample.copy(figures = sample.figures + figures, flags = sample.flags + flags)
    }

    companion object {
        /** The ledger of [cell] when it creates members; null for reads. */
        fun of(cell: Cell, dataServer: () -> DataServerClient): MemberLedger? {
            val target = cell.condition.target as? Target.Members ?: return null
            val client = dataServer()
            return MemberLedger(client::clearMembers, client::members, target.createdBy(cell.arm))
        }
    }
}
