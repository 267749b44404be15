package io.protobench.dataserver.members

import org.assertj.core.api.Assertions.assertThat
import org.junit.jupiter.api.Test
import org.springframework.dao.DataIntegrityViolationException
import org.springframework.orm.jpa.JpaSystemException
import org.springframework.transaction.CannotCreateTransactionException
import java.sql.SQLException
import java.sql.SQLTransientConnectionException

class DatabaseFailuresTest {
    private val uniqueViolation = DataIntegrityViolationException("insert", RuntimeException("constraint", SQLException("dup", "23505")))

    @Test
    fun `a unique violation anywhere in the chain is a duplicate email, named for a single creation`() {
        val single = DatabaseFailures.translated(uniqueViolation, listOf("ada@example.com"))
        assertThat(single).isInstanceOf(DuplicateEmail::class.java).hasMessageContaining("'ada@example.com' already exists")
        val batch = DatabaseFailures.translated(uniqueViolation, listOf("a@example.com", "b@example.com"))
        assertThat((batch as DuplicateEmail).email).isNull()
    }

    @Test
    fun `no connection within the timeout, or a lost one, is the database unavailable`() {
        val timeout = CannotCreateTransactionException("open", SQLTransientConnectionException("members - Connection is not available"))
        val lost = JpaSystemException(RuntimeException(SQLException("Connection reset", "08006")))
        for (failure in listOf(timeout, lost)) {
            assertThat(DatabaseFailures.translated(failure, emptyList())).isInstanceOf(DatabaseUnavailable::class.java)
        }
        assertThat(DatabaseFailures.translated(lost, emptyList())).hasMessageEndingWith(": Connection reset")
    }

    @Test
    fun `any other failure is passed on as it is`() {
        val other = DataIntegrityViolationException("value too long", SQLException("too long", "22001"))
        assertThat(DatabaseFailures.translated(other, listOf("ada@example.com"))).isSameAs(other)
    }
}
