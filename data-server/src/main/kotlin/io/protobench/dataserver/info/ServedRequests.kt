package io.protobench.dataserver.info

import org.springframework.stereotype.Component
import java.util.concurrent.atomic.LongAdder

/**
 * Data requests received since start, over every protocol (payloads and level objects;
 * not the write path, not the operational endpoints). Without a gateway in front (the
 * bench's `topology: direct`) this is how the runner sees the throughput of a soak window:
 * the load driver reports only at its end. A [LongAdder], so the count costs every
 * protocol the same few nanoseconds and no contention between event loops.
 */
@Component
class ServedRequests {
    private val received = LongAdder()

    fun count() = received.increment()

    fun total(): Long = received.sum()
}

/** `GET /internal/served`. */
data class ServedCount(val requests: Long)
