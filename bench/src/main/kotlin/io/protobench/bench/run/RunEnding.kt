package io.protobench.bench.run

import io.protobench.bench.measure.RunRecord

/**
 * Who writes a run's last record and its reports: the run's own thread when the run ends on
 * its own, or the shutdown hook when a signal (Ctrl-C, SIGTERM) ends it — never both.
 *
 * Both threads are alive after a signal: the hook stops the run, and the run's thread then
 * returns from it with a record that looks failed ("no fork completed"). The hook marks the
 * signal before it stops anything, so the run's thread, which only returns early because of
 * that stop, always sees the mark and leaves the ending to the hook.
 */
internal class RunEnding(private val store: RunStore, private val onFinished: (RunStore, RunRecord) -> Unit) {
    @Volatile
    var signalled = false
        private set

    private var ended = false

    /** The hook's first step, before it stops the run. */
    fun signal() {
        signalled = true
    }

    /** The run's thread ends the run unless a signal came first; false when it left the ending to the hook. */
    @Synchronized
    fun endedByRun(record: RunRecord): Boolean {
        if (signalled || ended) return false
        ended = true
        store.save(record)
        onFinished(store, record)
        return true
    }

    /**
     * The hook ends the run: [record] (interrupted) is sealed, then reported. False when the run
     * had already ended on its own, so a signal during its last report does not relabel it.
     * A report that cannot be written is not fatal here: run.json is sealed first.
     */
    @Synchronized
    fun endedBySignal(record: RunRecord): Boolean {
        if (ended) return false
        ended = true
        store.seal(record)
        runCatching { onFinished(store, record) }
            .onFailure { System.err.println("cannot write the report of the interrupted run (${it.message}); run.json is kept") }
        return true
    }
}
