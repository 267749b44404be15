package io.protobench.dataserver.members

import io.protobench.contract.members.MemberCounts
import io.protobench.contract.members.NewMember
import io.protobench.dataserver.config.DataServerSettings
import kotlinx.coroutines.CoroutineDispatcher
import kotlinx.coroutines.Dispatchers
import kotlinx.coroutines.withContext
import org.springframework.stereotype.Component
import org.springframework.transaction.PlatformTransactionManager
import org.springframework.transaction.support.TransactionTemplate
import java.util.concurrent.atomic.AtomicLong

/**
 * The members table as the protocols use it: creations, each in a transaction of its own
 * or a stream's batch in one, and the counts the runner checks after a trial. Failures
 * come out as [DuplicateEmail], [DatabaseUnavailable] or as they are.
 *
 * Blocking JDBC runs only on [jdbc], never on the thread that calls: WebFlux handlers and
 * gRPC's direct executor run on Netty event loops, where one blocked call would stall every
 * connection of its loop, and gRPC's default handlers run on `Dispatchers.Default`, sized
 * to the cores for work that never blocks. [jdbc] has as many threads as the pool has
 * connections: one more could only block inside HikariCP waiting for a connection, while a
 * call beyond the pool waits here as a suspended coroutine and holds no thread.
 */
@Component
@MembersEnabled
class MemberStore(private val repository: MemberRepository, transactionManager: PlatformTransactionManager, settings: DataServerSettings) {
    private val jdbc: CoroutineDispatcher = Dispatchers.IO.limitedParallelism(settings.db.poolSize)
    private val transactions = TransactionTemplate(transactionManager)
    private val dbTimes = DbTimes()
    private val created = AtomicLong()

    /** Creates [member] in a transaction of its own; its new id. */
    suspend fun create(member: NewMember): Long = createAll(listOf(member)).single()

    /** Creates [members] in one transaction, all of them or none; their new ids, in order. */
    suspend fun createAll(members: List<NewMember>): List<Long> {
        if (members.isEmpty()) return emptyList()
        return onJdbc(members.map { it.email }) {
            val ids = dbTimes.timed { transactions.execute { members.map { repository.save(MemberEntity.of(it)).id!! } }!! }
            // Counted here, on the JDBC thread once the commit is done: counted after withContext,
            // a caller cancelled meanwhile would skip the count of rows that exist.
            created.addAndGet(ids.size.toLong())
            ids
        }
    }

    /**
     * Rows in the table, members created since start and the database time since the
     * previous call. Rows and creations agree only when no creation is under way.
     */
    suspend fun counts(): MemberCounts {
        val rows = onJdbc(emptyList()) { repository.count() }
        return MemberCounts(rows = rows, created = created.get(), dbTime = dbTimes.interval())
    }

    /**
     * Deletes every row (one `TRUNCATE`) and answers the counts after it; creations since
     * start keep counting. The runner empties the table before each trial, so that every arm
     * writes into the same table and an in-memory database holds one trial's rows, not a run's.
     */
    suspend fun clear(): MemberCounts {
        onJdbc(emptyList()) { transactions.executeWithoutResult { repository.truncate() } }
        return counts()
    }

    /** [call] on the JDBC threads, its failure translated for a call that writes [emails]. */
    private suspend fun <T> onJdbc(emails: List<String>, call: () -> T): T = withContext(jdbc) {
        try {
            call()
        } catch (e: RuntimeException) {
            throw DatabaseFailures.translated(e, emails)
        }
    }
}
