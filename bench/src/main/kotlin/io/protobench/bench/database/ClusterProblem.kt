package io.protobench.bench.database

/**
 * Why a cluster cannot be started, stopped or found, in words for the command line (exit 2,
 * never a stack trace): programs missing, a folder PostgreSQL cannot use, a cluster
 * already running there, or none to stop.
 */
open class ClusterProblem(message: String) : RuntimeException(message)

/** PostgreSQL's server programs are not installed: the message names the package. */
class PostgresMissing(message: String) : ClusterProblem(message)

/** PostgreSQL itself failed (initdb, start or stop): its own last words and the log to read. */
class ClusterFailed(message: String) : ClusterProblem(message)
