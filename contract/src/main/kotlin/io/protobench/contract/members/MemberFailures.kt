package io.protobench.contract.members

/**
 * Words of the write path's failures that a client must be able to recognise. Over gRPC,
 * UNAVAILABLE means both "the data-server's database is gone" and "no connection to the
 * data-server"; the gateway tells them apart by this start of the status description.
 */
object MemberFailures {
    /** How the data-server's 503 / UNAVAILABLE for a database it cannot reach begins. */
    const val DATABASE_UNAVAILABLE = "the members database is unavailable"
}
