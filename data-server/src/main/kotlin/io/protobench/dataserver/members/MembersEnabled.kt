package io.protobench.dataserver.members

import org.springframework.boot.autoconfigure.condition.ConditionalOnProperty

/**
 * The write path exists in this server: its database (pool, Flyway, JPA), the store and
 * the endpoints that use it. On by default; the lab turns it off for runs that only read,
 * because a database layer that nobody calls still costs every start (start-up 3.8 s →
 * 6.6 s, +6,700 classes, ~11 MB more heap after GC on the AMD EPYC VM) and the soak then
 * warms a larger JVM.
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
