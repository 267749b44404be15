package io.protobench.bench.testkit

import org.junit.jupiter.api.extension.ExtensionContext
import org.junit.jupiter.api.extension.TestWatcher

/**
 * Prints every skipped test with its reason on the console: Surefire's summary counts skips
 * but keeps their reasons in its report files, and a skip in CI must say why where it is read.
 * Registered for every test of this module (META-INF/services, autodetection in junit-platform.properties).
 */
class SkipsOnConsole : TestWatcher {
    override fun testAborted(context: ExtensionContext, cause: Throwable?) {
        println("SKIPPED ${context.requiredTestClass.simpleName} > ${context.displayName}: ${cause?.message ?: "no reason given"}")
    }

    override fun testDisabled(context: ExtensionContext, reason: java.util.Optional<String>) {
        println("SKIPPED ${context.requiredTestClass.simpleName} > ${context.displayName}: ${reason.orElse("disabled")}")
    }
}
