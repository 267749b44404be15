package io.protobench.bench.testkit

/**
 * The JUnit tag of the slow tier: real end-to-end runs beyond the few that guard the main path.
 * `./protobench test` leaves them out, `./protobench test --all` adds them, `--slow` runs them alone.
 */
const val SLOW = "slow"

/**
 * The JUnit tag of tests that start a process of their own (a JVM, a database, a browser, a
 * network namespace, a tool, or a throw-away `sleep`): `./protobench test --unit` leaves them
 * out, with the slow tier, for a contributor's inner loop; every other tier runs them.
 */
const val PROCESS = "process"
