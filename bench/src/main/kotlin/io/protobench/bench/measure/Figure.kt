package io.protobench.bench.measure

/**
 * A figure measured in every trial. [higherIsBetter] says which way "better" points
 * when comparing protocols; [source] says where it is measured.
 */
enum class Figure(val key: String, val title: String, val unit: String, val higherIsBetter: Boolean, val source: String) {
    THROUGHPUT(
        "throughput_rps",
        "Throughput",
        "req/s",
        true,
        "driver: correct answers (status 200, exact expected size) of the timed phase / its length",
    ),
    LATENCY_AVG(
        "latency_avg_ms",
        "Latency avg",
        "ms",
        false,
        "driver: from each arrival's intended start to its answer (through the gateway; direct: warm connections only)",
    ),
    LATENCY_P50("latency_p50_ms", "Latency p50", "ms", false, "driver (HdrHistogram)"),
    LATENCY_P90("latency_p90_ms", "Latency p90", "ms", false, "driver"),
    LATENCY_P95("latency_p95_ms", "Latency p95", "ms", false, "driver"),
    LATENCY_P99("latency_p99_ms", "Latency p99", "ms", false, "driver"),
    LATENCY_P999("latency_p999_ms", "Latency p99.9", "ms", false, "driver"),
    LATENCY_MAX("latency_max_ms", "Latency max", "ms", false, "driver"),
    FIRST_MESSAGE_P50(
        "first_message_p50_ms",
        "Stream first message p50",
        "ms",
        false,
        "driver (topology direct, gRPC/Stream): from the call's intended start to the stream's first message " +
            "(k6 in older records: whole milliseconds)",
    ),
    FIRST_MESSAGE_P99("first_message_p99_ms", "Stream first message p99", "ms", false, "driver, as first_message_p50_ms"),
    SEND_DELAY_P99(
        "send_delay_p99_ms",
        "Driver send delay p99",
        "ms",
        false,
        "driver (open model): how long after its due time it sent the timed phase's arrivals, p99 (HdrHistogram): " +
            "the driver's own part of latency p99",
    ),
    DROPPED_ITERATIONS(
        "dropped_iterations",
        "Dropped iterations",
        "count",
        false,
        "driver (open model): arrivals not sent because every connection was busy and its queue full",
    ),
    TARGET_RATE_SHARE(
        "target_rate_share",
        "Achieved / target rate",
        "fraction",
        true,
        "driver (open model): throughput / target arrival rate",
    ),
    ERROR_RATE("error_rate", "Errors", "fraction", false, "driver: wrong answers / all answers, both phases"),
    HOP_P50("hop_p50_ms", "Hop p50", "ms", false, "gateway: gateway -> data-server -> decoded"),
    HOP_P99("hop_p99_ms", "Hop p99", "ms", false, "gateway"),
    HOP_AVG("hop_avg_ms", "Hop avg", "ms", false, "gateway"),
    HOP_CPU_US(
        "hop_cpu_us_per_req",
        "Hop CPU/req",
        "µs",
        false,
        "both servers' CPU/req minus the null hop's in the same fork: what the hop itself costs",
    ),
    HOP_SHARE(
        "hop_share",
        "Hop share of CPU",
        "fraction",
        true,
        "hop CPU/req ÷ (driver + both servers) CPU/req: how much of the measured work is the protocol",
    ),
    DRIVER_CPU_US(
        "driver_cpu_us_per_req",
        "Driver CPU/req",
        "µs",
        false,
        "/proc: the load driver's CPU time / requests (k6's in records before the lab's own driver)",
    ),
    DRIVER_KERNEL_CPU_US(
        "driver_kernel_cpu_us_per_req",
        "Driver kernel CPU/req",
        "µs",
        false,
        "/proc: the load driver's system time (stime) / requests, inside driver_cpu_us_per_req: its sockets' sends and receives " +
            "(loopback TCP runs in the sender's system call), epoll, timers; a tick-sampled split, unsteady on a VM",
    ),
    DRIVER_SWITCHES(
        "driver_context_switches_per_req",
        "Driver context switches/req",
        "count",
        false,
        "the driver's own count (/proc/self): voluntary and involuntary context switches of all its threads " +
            "over the timed phase / answered requests",
    ),
    API_CPU_US("api_cpu_us_per_req", "api-server CPU/req", "µs", false, "gateway JVM process CPU time / requests"),
    DATA_CPU_US("data_cpu_us_per_req", "data-server CPU/req", "µs", false, "data-server JVM process CPU time / requests"),
    API_JIT_CPU_US(
        "api_jit_cpu_us_per_req",
        "api-server JIT CPU/req",
        "µs",
        false,
        "/proc: CPU of the gateway's JIT compiler threads / requests",
    ),
    DATA_JIT_CPU_US(
        "data_jit_cpu_us_per_req",
        "data-server JIT CPU/req",
        "µs",
        false,
        "/proc: CPU of the data-server's JIT compiler threads / requests",
    ),
    API_GC_CPU_US(
        "api_gc_cpu_us_per_req",
        "api-server GC CPU/req",
        "µs",
        false,
        "/proc: CPU of the gateway's garbage collector threads / requests (inside api-server CPU/req)",
    ),
    DATA_GC_CPU_US(
        "data_gc_cpu_us_per_req",
        "data-server GC CPU/req",
        "µs",
        false,
        "/proc: CPU of the data-server's garbage collector threads / requests (inside data-server CPU/req)",
    ),
    DB_CPU_US(
        "db_cpu_us_per_req",
        "Database CPU/req",
        "µs",
        false,
        "/proc: CPU of a PostgreSQL server's processes (postmaster, backends, background workers) / requests; " +
            "H2 works inside data-server CPU/req",
    ),
    TOTAL_CPU_US(
        "total_cpu_us_per_req",
        "Both servers CPU/req",
        "µs",
        false,
        "api-server + data-server CPU/req (+ database CPU/req of a PostgreSQL server), their JIT compiler threads excluded",
    ),
    REQ_PER_CPU_SECOND("req_per_cpu_second", "Requests per CPU-second", "req/CPU-s", true, "1e6 / both servers' CPU µs per request"),
    API_ALLOC("api_alloc_bytes_per_req", "api-server alloc/req", "bytes", false, "JVM allocated bytes / requests"),
    DATA_ALLOC("data_alloc_bytes_per_req", "data-server alloc/req", "bytes", false, "JVM allocated bytes / requests"),
    API_GC_COUNT(
        "api_gc_count",
        "api-server GCs",
        "count",
        false,
        "every GarbageCollectorMXBean's count over the window, summed: pauses, and on ZGC and Shenandoah their cycles beside them",
    ),
    DATA_GC_COUNT("data_gc_count", "data-server GCs", "count", false, "as api_gc_count"),
    API_GC_TIME(
        "api_gc_time_ms",
        "api-server GC time",
        "ms",
        false,
        "every GarbageCollectorMXBean's time over the window, summed: pause time, and on ZGC and Shenandoah their cycles' wall time",
    ),
    DATA_GC_TIME("data_gc_time_ms", "data-server GC time", "ms", false, "as api_gc_time_ms"),
    API_GC_PAUSES(
        "api_gc_pauses",
        "api-server GC pauses",
        "count",
        false,
        "the collector's notifications: stop-the-world pauses over the window, each once " +
            "(a concurrent cycle is no pause; JDK 17's G1 notifies no Remark or Cleanup)",
    ),
    DATA_GC_PAUSES("data_gc_pauses", "data-server GC pauses", "count", false, "as api_gc_pauses"),
    API_GC_PAUSE_TIME(
        "api_gc_pause_ms",
        "api-server GC pause time",
        "ms",
        false,
        "the collector's notifications: those pauses' summed length (each in whole milliseconds of uptime)",
    ),
    DATA_GC_PAUSE_TIME("data_gc_pause_ms", "data-server GC pause time", "ms", false, "as api_gc_pause_ms"),
    API_GC_CONCURRENT_CPU(
        "api_gc_concurrent_cpu_ms",
        "api-server concurrent GC CPU",
        "ms",
        false,
        "/proc/self/task/*/schedstat: CPU of the collector's concurrent threads over the window " +
            "(G1's marking and refinement, ZGC's, Shenandoah's; Parallel has none)",
    ),
    DATA_GC_CONCURRENT_CPU("data_gc_concurrent_cpu_ms", "data-server concurrent GC CPU", "ms", false, "as api_gc_concurrent_cpu_ms"),
    API_HEAP_AFTER_GC(
        "api_heap_after_gc_mb",
        "api-server heap after GC",
        "MB",
        false,
        "the collector's notifications: heap in use after the latest collection as the window ended (ZGC, Shenandoah: the latest cycle's)",
    ),
    DATA_HEAP_AFTER_GC("data_heap_after_gc_mb", "data-server heap after GC", "MB", false, "as api_heap_after_gc_mb"),
    DRIVER_CORES("driver_cores", "Driver CPU", "cores", false, "/proc: CPU seconds of the load driver per wall second"),
    API_CORES("api_cores", "api-server CPU", "cores", false, "/proc: CPU seconds of the gateway per wall second"),
    DATA_CORES("data_cores", "data-server CPU", "cores", false, "/proc: CPU seconds of the data-server per wall second"),
    MACHINE_BUSY("machine_busy", "Machine busy", "fraction", false, "/proc/stat: busy share of all cores"),
    API_PEAK_HEAP("api_peak_heap_mb", "api-server peak heap", "MB", false, "JVM heap pools' peak over the window"),
    DATA_PEAK_HEAP("data_peak_heap_mb", "data-server peak heap", "MB", false, "JVM heap pools' peak over the window"),
    DB_MS_PER_REQ(
        "db_ms_per_req",
        "DB time/req",
        "ms",
        false,
        "data-server (member creation): time inside write transactions, from opening to commit, " +
            "per confirmed request (a batch's transactions summed)",
    ),
    DB_TX_P99("db_tx_p99_ms", "DB transaction p99", "ms", false, "data-server: HdrHistogram of the committed write transactions' times"),
    ROWS_WRITTEN("rows_written", "Rows written", "count", true, "data-server: rows in the members table after the trial minus before"),
    ;

    companion object {
        private val BY_KEY = entries.associateBy { it.key }

        fun byKey(key: String): Figure? = BY_KEY[key]

        /** Keys records of schema 2 wrote when k6 was the load generator, and the figure each is now. */
        val FORMER_KEYS = mapOf("k6_cpu_us_per_req" to DRIVER_CPU_US, "k6_cores" to DRIVER_CORES)
    }
}
