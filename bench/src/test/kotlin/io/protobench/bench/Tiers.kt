package io.protobench.bench

/**
 * The JUnit tag of the slow tier: real end-to-end runs beyond the few that guard the main path.
 * `./protobench test` leaves them out, `./protobench test --all` adds them, `--slow` runs them alone.
 */
const val SLOW = "slow"
