package io.protobench.dataserver.members

import io.protobench.contract.members.MemberFailures
import org.springframework.dao.DataAccessResourceFailureException
import org.springframework.transaction.CannotCreateTransactionException
import java.sql.SQLException
import java.sql.SQLNonTransientConnectionException
import java.sql.SQLTransientConnectionException

/** A creation refused because its email is taken: 409 / ALREADY_EXISTS. */
class DuplicateEmail(
    /** The email of a single creation; null for a stream batch, which names no member. */
    val email: String?,
) : RuntimeException(
    if (email != null) {
        "a member with email '$email' already exists"
    } else {
        "an email of this stream already belongs to a member, or is repeated in the stream; nothing was created"
    },
)

/** The database could not be reached (no connection within the timeout, or one lost mid-call): 503 / UNAVAILABLE. */
class DatabaseUnavailable(cause: Throwable) :
    RuntimeException("${MemberFailures.DATABASE_UNAVAILABLE}; nothing was written: ${DatabaseFailures.deepestMessage(cause)}", cause)

/**
 * What a failed database call means for the caller. Judged on the SQL state and the kind
 * of exception anywhere in the cause chain, since Spring, Hibernate and HikariCP each wrap
 * the driver's exception differently, and H2 and PostgreSQL share the standard states.
 */
object DatabaseFailures {
    /** SQLSTATE of a unique-key violation (H2 and PostgreSQL); `members` has one unique key besides its id, the email. */
    private const val UNIQUE_VIOLATION = "23505"

    /** SQLSTATE class of connection errors. */
    private const val CONNECTION_CLASS = "08"

    /** Longest cause message passed on to a client. */
    private const val MAX_MESSAGE_CHARS = 300

    /** [failure] of a call that wrote [members] (none for a read) as [DuplicateEmail], [DatabaseUnavailable], or itself. */
    fun translated(failure: RuntimeException, emails: List<String>): RuntimeException {
        val chain = generateSequence<Throwable>(failure) { it.cause }.toList()
        return when {
            chain.any { it is SQLException && it.sqlState == UNIQUE_VIOLATION } -> DuplicateEmail(emails.singleOrNull())
            chain.any(::isConnectionFailure) -> DatabaseUnavailable(failure)
            else -> failure
        }
    }

    /** The message of the innermost cause that has one, cut short. */
    fun deepestMessage(failure: Throwable): String =
        generateSequence(failure) { it.cause }.mapNotNull { it.message }.lastOrNull().orEmpty().take(MAX_MESSAGE_CHARS)

    private fun isConnectionFailure(e: Throwable): Boolean =
        e is CannotCreateTransactionException || e is DataAccessResourceFailureException ||
            e is SQLTransientConnectionException || e is SQLNonTransientConnectionException ||
            (e is SQLException && e.sqlState?.startsWith(CONNECTION_CLASS) == true)
}
