package io.protobench.dataserver.members

import org.springframework.boot.autoconfigure.condition.ConditionalOnProperty

/**
 * The write path exists in this server: its database (pool, Flyway, JPA), the store and
 * the endpoints that use it. On by default; the lab turns it off for runs that only read,
 * because a database layer that nobody calls still costs every start (seconds of start-up,
 * thousands of classes, megabytes of heap: docs/architecture.md, "The write path") and the
 * soak then warms a larger JVM.
 */
@Target(AnnotationTarget.CLASS, AnnotationTarget.FUNCTION)
@Retention(AnnotationRetention.RUNTIME)
@ConditionalOnProperty(prefix = "protobench.data.members", name = ["enabled"], havingValue = "true", matchIfMissing = true)
annotation class MembersEnabled

/** The opposite of [MembersEnabled]: the server only reads. */
@Target(AnnotationTarget.CLASS, AnnotationTarget.FUNCTION)
@Retention(AnnotationRetention.RUNTIME)
@ConditionalOnProperty(prefix = "protobench.data.members", name = ["enabled"], havingValue = "false")
annotation class MembersDisabled
