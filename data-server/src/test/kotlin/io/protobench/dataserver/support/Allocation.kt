package io.protobench.dataserver.support

import java.lang.management.ManagementFactory

/** Heap bytes this thread allocates while running [block] (the JVM's own per-thread counter). */
fun allocatedBy(block: () -> Unit): Long {
    val threads = ManagementFactory.getThreadMXBean() as com.sun.management.ThreadMXBean
    val before = threads.currentThreadAllocatedBytes
    block()
    return threads.currentThreadAllocatedBytes - before
}
