package io.protobench.contract.members

import com.fasterxml.jackson.annotation.JsonAlias

/**
 * The HTTP/JSON body of `POST /api/members`, seed 003's shape: the image as base64 text.
 * Every field may be missing here, so that [MemberRules] names a missing field in its own
 * words rather than the JSON reader failing first.
 */
data class CreateMemberJson(
    val email: String? = null,
    val password: String? = null,
    val name: String? = null,
    /** Base64 of the image bytes. Seed 003's scripts call it `profileImageBase64`; that name is read too. */
    @JsonAlias("profileImageBase64")
    val profileImage: String? = null,
    val etcInfo: String? = null,
)

/** The HTTP/JSON answer to a creation: the new member's id. */
data class MemberCreated(val id: Long)

/**
 * What `GET /internal/members` answers, read by the runner after each trial: every
 * successful creation must be a row and every row a successful creation.
 */
data class MemberCounts(
    /** Rows in the members table now. */
    val rows: Long,
    /** Members this data-server created (committed) since it started. */
    val created: Long,
    /** Time in the database since the previous call (see [DbTimeStats]). */
    val dbTime: DbTimeStats,
)

/**
 * Database time of the write transactions that committed in an interval, milliseconds:
 * from just before the transaction opens until it has committed, on the thread that runs
 * it (decoding, validation, encoding and waiting for a JDBC thread are left out). One
 * value per transaction: a unary creation, or a whole stream batch. From an HdrHistogram
 * of microseconds, 3 significant digits.
 */
data class DbTimeStats(val count: Long, val meanMs: Double, val p50Ms: Double, val p99Ms: Double, val maxMs: Double) {
    companion object {
        /** An interval without committed transactions. */
        val EMPTY = DbTimeStats(0, 0.0, 0.0, 0.0, 0.0)
    }
}
