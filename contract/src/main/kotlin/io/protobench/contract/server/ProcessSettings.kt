package io.protobench.contract.server

import org.springframework.boot.context.properties.ConfigurationProperties

/**
 * Settings every lab server takes, bound from `protobench.*` (the servers' own
 * settings live below it, in `protobench.data` and `protobench.gateway`).
 */
@ConfigurationProperties("protobench")
data class ProcessSettings(
    /**
     * Process id of the parent (the bench runner). When set, the server exits by
     * itself once that process is gone; unset (the default) it runs until stopped.
     */
    val parentPid: Long? = null,
) {
    init {
        require(parentPid == null || parentPid > 0) {
            "protobench.parent-pid must be a process id (a whole number above 0), got $parentPid"
        }
    }
}
