package io.protobench.apiserver.measure

import kotlinx.coroutines.CoroutineScope
import kotlinx.coroutines.Job
import kotlinx.coroutines.cancelAndJoin
import kotlinx.coroutines.delay
import kotlinx.coroutines.isActive
import kotlinx.coroutines.launch
import kotlin.time.Duration

/**
 * Reads the gateway JVM's CPU load and heap every [period] while a window is open,
 * keeping running aggregates (no list of samples).
 */
class ResourceSampler(private val probe: LocalProbe, private val period: Duration) {

    /** Starts sampling in [scope]; the first reading only primes the JVM's CPU-load counters. */
    fun launchIn(scope: CoroutineScope): Running {
        probe.sample()
        val aggregate = SampleAggregate()
        val job = scope.launch {
            while (isActive) {
                delay(period)
                aggregate.add(probe.sample())
            }
        }
        return Running(job, aggregate)
    }

    inner class Running(private val job: Job, private val aggregate: SampleAggregate) {
        /** Stops sampling, takes a last reading (so even a short window has one) and returns the aggregate. */
        suspend fun stop(): SampleAggregate {
            job.cancelAndJoin()
            return aggregate.also { it.add(probe.sample()) }
        }

        fun cancel() = job.cancel()
    }
}

/** Running averages and maxima of [ResourceSample]s, percent and bytes. */
class SampleAggregate {
    private val systemCpu = Series()
    private val processCpu = Series()

    /** Highest heap in use seen by any sample, bytes. */
    var peakHeapBytes = 0L
        private set

    @Synchronized
    fun add(sample: ResourceSample) {
        sample.systemCpuPercent?.let(systemCpu::add)
        sample.processCpuPercent?.let(processCpu::add)
        peakHeapBytes = maxOf(peakHeapBytes, sample.heapUsedBytes)
    }

    val avgSystemCpuPercent: Double @Synchronized get() = systemCpu.average
    val peakSystemCpuPercent: Double @Synchronized get() = systemCpu.max
    val avgProcessCpuPercent: Double @Synchronized get() = processCpu.average
    val peakProcessCpuPercent: Double @Synchronized get() = processCpu.max

    private class Series {
        private var count = 0
        private var sum = 0.0
        var max = 0.0
            private set

        val average: Double get() = if (count == 0) 0.0 else sum / count

        fun add(value: Double) {
            count++
            sum += value
            max = maxOf(max, value)
        }
    }
}
