package io.protobench.bench.lab.writes

import io.protobench.bench.design.Sample
import io.protobench.bench.measure.Figure
import io.protobench.bench.measure.Figures
import io.protobench.bench.measure.Flag
import io.protobench.bench.measure.TrialKind
import io.protobench.bench.measure.TrialLoad
import io.protobench.bench.measure.TrialRecord
import io.protobench.contract.members.DbTimeStats
import io.protobench.contract.members.MemberCounts
import org.assertj.core.api.Assertions.assertThat
import org.assertj.core.api.Assertions.within
import org.junit.jupiter.api.Test

class MemberLedgerTest {
    private val emptied = MemberCounts(rows = 0, created = 500, dbTime = DbTimeStats.EMPTY)

    /** A ledger whose table was emptied and then reads [after]; [clears] counts the emptying. */
    private fun ledger(after: MemberCounts, membersPerRequest: Int = 1, clears: MutableList<Unit> = mutableListOf()) = MemberLedger({
        clears.add(Unit)
        emptied
    }, { after }, membersPerRequest).also { it.open() }

    private fun dbTime(count: Long, meanMs: Double) = DbTimeStats(count, meanMs, meanMs, meanMs * 3, meanMs * 5)

    @Test
    fun `rows equal to the confirmed creations pass, with the database time per confirmed request`() {
        val clears = mutableListOf<Unit>()
        // 100 requests of a batch of 10 over unary calls: 1,000 transactions of 0.2 ms.
        val (figures, flags) = ledger(MemberCounts(1000, 1500, dbTime(1000, 0.2)), membersPerRequest = 10, clears).close(100)
        assertThat(clears).describedAs("the table is emptied before the trial").hasSize(1)
        assertThat(flags).isEmpty()
        assertThat(figures[Figure.ROWS_WRITTEN]).isEqualTo(1000.0)
        assertThat(figures[Figure.DB_MS_PER_REQ]!!).isCloseTo(2.0, within(1e-9))
        assertThat(figures[Figure.DB_TX_P99]).isEqualTo(0.6000000000000001)
    }

    @Test
    fun `a confirmed creation without its row is a lost write that makes the trial invalid`() {
        val (_, flags) = ledger(MemberCounts(99, 600, dbTime(100, 0.2))).close(100)
        val mismatch = flags.single() as Flag.RowsMismatch
        assertThat(mismatch).isEqualTo(Flag.RowsMismatch(confirmed = 100, rows = 99, committed = 100))
        assertThat(mismatch.lost).isEqualTo(1)
        val trial = TrialRecord(
            "image=1kb vus=10", "gRPC/Unary", TrialKind.COST, 1, 1, "t", TrialLoad.rate(10), Figures.NONE, 100, 0, flags,
        )
        assertThat(trial.valid).isFalse()
        assertThat(trial.invalidReason()).contains("99 new rows", "100 confirmed")
    }

    @Test
    fun `a row whose creation the caller saw fail is flagged but leaves the trial to the wrong-answer rule`() {
        val (_, flags) = ledger(MemberCounts(101, 601, dbTime(101, 0.2))).close(100)
        assertThat((flags.single() as Flag.RowsMismatch).lost).isZero()
        val trial = TrialRecord(
            "image=1kb vus=10", "gRPC/Unary", TrialKind.COST, 1, 1, "t", TrialLoad.rate(10), Figures.NONE, 100, 1, flags,
        )
        assertThat(trial.invalidReason()).describedAs("1 wrong answer in 101 is over 0.1%%").contains("wrong")
    }

    @Test
    fun `the null hop creates nothing, and a row would be flagged`() {
        val (figures, flags) = ledger(MemberCounts(0, 500, DbTimeStats.EMPTY), membersPerRequest = 0).close(300)
        assertThat(flags).isEmpty()
        assertThat(figures[Figure.DB_MS_PER_REQ]).isNull()
        assertThat(ledger(MemberCounts(1, 501, dbTime(1, 0.1)), membersPerRequest = 0).close(300).second).hasSize(1)
    }

    @Test
    fun `closing into a sample keeps its figures and flags and checks the table against its correct answers`() {
        val busy = Flag.MachineBusy(0.97, 0.9, 2)
        val sample = Sample(Figures.of(Figure.THROUGHPUT to 50.0), correctAnswers = 100, wrongAnswers = 0, flags = listOf(busy))
        val closed = ledger(MemberCounts(99, 599, dbTime(99, 0.2))).closeInto(sample)
        assertThat(closed.figures.toMap()).containsEntry(Figure.THROUGHPUT, 50.0).containsEntry(Figure.ROWS_WRITTEN, 99.0)
        assertThat(closed.flags).containsExactly(busy, Flag.RowsMismatch(confirmed = 100, rows = 99, committed = 99))
    }
}
