package io.protobench.contract.metrics

import com.sun.management.GarbageCollectionNotificationInfo
import io.protobench.contract.Json
import java.lang.management.ManagementFactory
import java.util.concurrent.ConcurrentHashMap
import java.util.concurrent.atomic.AtomicLong
import javax.management.NotificationEmitter
import javax.management.NotificationListener
import javax.management.openmbean.CompositeData
import kotlin.random.Random

/**
 * The child JVM of [GcCollectorsTest]: listens as a server does, allocates for the milliseconds
 * given (short-lived arrays, a share of them kept for a while), waits until every collection the
 * beans counted has been notified, and prints one line of JSON ([GcLoadResult]).
 */
object GcLoad {
    @JvmStatic
    fun main(args: Array<String>) {
        GcNotifications.listen()
        // A second listener, registered after the counter's, so it hears each notification after the counter has.
        val notified = ConcurrentHashMap<String, AtomicLong>()
        val beans = ManagementFactory.getGarbageCollectorMXBeans()
        val listener = NotificationListener { n, _ ->
            if (n.type == GarbageCollectionNotificationInfo.GARBAGE_COLLECTION_NOTIFICATION) {
                val info = GarbageCollectionNotificationInfo.from(n.userData as CompositeData)
                notified.computeIfAbsent("${info.gcName}: ${info.gcAction}") { AtomicLong() }.incrementAndGet()
            }
        }
        beans.forEach { (it as NotificationEmitter).addNotificationListener(listener, null, null) }
        val baseline = beans.associate { it.name to (it.collectionCount to it.collectionTime) }

        val loadMs = args.single().toLong()
        allocate(loadMs)

        // The beans' counts, then every notification for them heard, then the counter read; again if a collection came meanwhile.
        fun counts() = beans.associate {
            it.name to BeanCount(
                it.collectionCount - baseline.getValue(it.name).first,
                it.collectionTime - baseline.getValue(it.name).second,
            )
        }
        val deadline = System.nanoTime() + 10_000_000_000
        var counted: Map<String, BeanCount>
        var totals: GcTotals
        var heard: Map<String, Long>
        do {
            counted = counts()
            while (notified.values.sumOf { it.get() } < counted.values.sumOf { it.count } && System.nanoTime() < deadline) Thread.sleep(10)
            totals = GcNotifications.totals()
            heard = notified.mapValues { it.value.get() }
        } while (counts() != counted && System.nanoTime() < deadline)

        val facts = JvmFacts.current()
        val result = GcLoadResult(
            javaVersion = facts.javaVersion,
            collector = facts.collector,
            uptimeMs = ManagementFactory.getRuntimeMXBean().uptime,
            processors = Runtime.getRuntime().availableProcessors(),
            maxHeapBytes = facts.maxHeapBytes,
            totals = totals,
            beans = counted,
            notifications = heard,
        )
        println(Json.newMapper().writeValueAsString(result))
    }

    /** Arrays of 16 B to 8 KiB; one in 40 kept in a ring of 2,000 (about 8 MB live), so that some live long enough to be promoted. */
    private fun allocate(ms: Long) {
        val ring = arrayOfNulls<ByteArray>(2_000)
        val random = Random(55)
        var sink = 0L
        val end = System.nanoTime() + ms * 1_000_000
        var i = 0
        while (System.nanoTime() < end) {
            val array = ByteArray(16 + random.nextInt(8192))
            sink += array.size
            if (random.nextInt(40) == 0) ring[i++ % ring.size] = array
        }
        if (sink == 0L) println("nothing allocated")
    }
}

/** What [GcLoad] prints: the counter's totals beside each bean's count and the notifications heard, since the listening began. */
data class GcLoadResult(
    val javaVersion: String,
    val collector: String?,
    val uptimeMs: Long,
    val processors: Int,
    val maxHeapBytes: Long,
    val totals: GcTotals,
    /** Each `GarbageCollectorMXBean`'s count and time, ms. */
    val beans: Map<String, BeanCount>,
    /** Notifications by "bean: action". */
    val notifications: Map<String, Long>,
)

data class BeanCount(val count: Long, val timeMs: Long)
