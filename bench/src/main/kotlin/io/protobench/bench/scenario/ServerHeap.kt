package io.protobench.bench.scenario

import io.protobench.contract.payload.PayloadSize
import kotlin.math.ceil
import kotlin.math.roundToLong

/**
 * Whether the servers' heap can hold the payloads a scenario keeps in flight. A payload
 * scenario at many virtual users can ask for more than the heap: the servers then die of
 * OutOfMemoryError mid-run, after minutes of soak, instead of being refused up front.
 */
object ServerHeap {
    /** What both servers get when no --jvm-opt is given. */
    val DEFAULT_JVM_OPTIONS = listOf("-Xms1g", "-Xmx1g")

    const val GIB = 1L shl 30
    private const val MIB = 1L shl 20

    /**
     * Copies of one response alive at once on the gateway, the server that holds the
     * most; a rough count, not a measurement: the bytes received from the data-server,
     * the decoded payload, and for the JSON hop the base64 text and the bytes decoded
     * from it.
     */
    const val COPIES_IN_FLIGHT = 4

    val DEFAULT_BYTES: Long = maxHeapBytes(DEFAULT_JVM_OPTIONS)

    /** The heap the payloads of [scenario] need at once: largest size × most virtual users × [COPIES_IN_FLIGHT]. */
    fun inFlightBytes(scenario: Scenario): Long = largest(scenario.parts)?.bytes ?: 0

    /**
     * Null when [parts] fit a heap of [heapBytes]; else the violation with the estimate and
     * the two ways out. [variant] names the variant whose own heap [heapBytes] is (null: the
     * run's), which is raised in the scenario instead of with --jvm-opt.
     */
    fun check(parts: List<Part>, heapBytes: Long, source: String, variant: String? = null): Violation? {
        val worst = largest(parts)?.takeIf { it.bytes > heapBytes } ?: return null
        val vusField = if (worst.openModel) "load.maxVus" else "load.vus"
        val needed = "${ceil(worst.bytes.toDouble() / GIB).toLong()}g"
        val servers = if (variant == null) "the servers have" else "the servers of variant $variant have"
        val raise = if (variant == null) "raise it with --jvm-opt -Xmx$needed" else "raise its heap, e.g. heap: $needed"
        return Violation(
            source,
            vusField,
            "${worst.sizeLabel} × ${worst.vus} VUs",
            "largest size × virtual users × $COPIES_IN_FLIGHT copies within the servers' heap",
            "${worst.sizeLabel} × ${worst.vus} VUs needs about ${amount(worst.bytes)} of heap in flight; " +
                "$servers ${amount(heapBytes)} ($raise, or lower $vusField)",
        )
    }

    /**
     * The heap the servers run with under [jvmOptions]: the last -Xmx or -XX:MaxHeapSize,
     * as the JVM reads them. Without either we assume the default 1 GiB, although the JVM
     * would take a quarter of the machine's memory: better to refuse what might not fit.
     * Throws [InvalidScenario] for a size the JVM would not accept.
     */
    fun maxHeapBytes(jvmOptions: List<String>): Long {
        val option = jvmOptions.lastOrNull { it.startsWith("-Xmx") || it.startsWith(MAX_HEAP_SIZE) } ?: return DEFAULT_BYTES
        val text = option.removePrefix("-Xmx").removePrefix(MAX_HEAP_SIZE)
        return parseSize(text) ?: throw InvalidScenario(
            listOf(
                Violation(
                    "command line",
                    "--jvm-opt",
                    option,
                    "-Xmx followed by a heap size: bytes, or a number with k, m, g or t (e.g. 512m, 4g, 1073741824)",
                ),
            ),
        )
    }

    /** A JVM memory size: "1073741824", "512m", "4G". Null when not one or zero. */
    fun parseSize(text: String): Long? {
        val (number, unit) = Regex("""^(\d{1,15})([kKmMgGtT]?)$""").matchEntire(text)?.destructured ?: return null
        val shift = when (unit.lowercase()) {
            "k" -> 10
            "m" -> 20
            "g" -> 30
            "t" -> 40
            else -> 0
        }
        val bytes = number.toLong()
        if (bytes == 0L || bytes > (Long.MAX_VALUE shr shift)) return null
        return bytes shl shift
    }

    private const val MAX_HEAP_SIZE = "-XX:MaxHeapSize="

    private class InFlight(val sizeLabel: String, val vus: Int, val openModel: Boolean) {
        val bytes: Long = PayloadSize.parse(sizeLabel).bytes.toLong() * vus * COPIES_IN_FLIGHT
    }

    /** The part that needs the most heap; object levels are small and not counted. */
    private fun largest(parts: List<Part>): InFlight? = parts.mapNotNull { part ->
        val sizes = (part.workload as? Workload.Payload)?.sizes ?: return@mapNotNull null
        val size = sizes.maxByOrNull { PayloadSize.parse(it).bytes } ?: return@mapNotNull null
        when (val load = part.load) {
            is Load.Closed -> load.vus.maxOrNull()?.let { InFlight(size, it, openModel = false) }
            is Load.Open -> InFlight(size, load.maxVus, openModel = true)
        }
    }.maxByOrNull { it.bytes }

    /** "1 GiB" for whole GiB, "16 GiB" from 10 GiB on (rounded), else "1200 MiB". */
    private fun amount(bytes: Long): String = when {
        bytes % GIB == 0L || bytes >= 10 * GIB -> "${(bytes.toDouble() / GIB).roundToLong()} GiB"
        else -> "${ceil(bytes.toDouble() / MIB).toLong()} MiB"
    }
}
