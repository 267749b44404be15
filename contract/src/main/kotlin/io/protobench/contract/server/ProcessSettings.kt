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
    /**
     * Host names besides the loopback ones that the control and internal endpoints answer
     * to. The runner gives the data-server its link address when the gateway reaches it
     * across a veth without a relay: the gateway then reads `/internal/metrics` by that
     * address, and a loopback-only guard refused it, leaving the data-server's figures out.
     */
    val internalHosts: List<String> = emptyList(),
) {
    init {
        require(parentPid == null || parentPid > 0) {
            "protobench.parent-pid must be a process id (a whole number above 0), got $parentPid"
        }
        internalHosts.firstOrNull { !LoopbackOnly.isHostName(it) }?.let {
            throw IllegalArgumentException(
                "protobench.internal-hosts takes host names or addresses without a port (e.g. 10.201.0.2), got '$it'",
            )
        }
    }
}
