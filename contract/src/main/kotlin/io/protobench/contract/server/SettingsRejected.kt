package io.protobench.contract.server

import org.springframework.boot.diagnostics.AbstractFailureAnalyzer
import org.springframework.boot.diagnostics.FailureAnalysis
import org.springframework.core.Ordered

/** Settings a server refuses to start with; each of [problems] is one line naming the property and the fix. */
open class SettingsRejected(val problems: List<String>) : RuntimeException("invalid settings: " + problems.joinToString("; "))

/**
 * Turns [SettingsRejected] at start-up into a short report, one line per problem and no
 * stack trace; Spring Boot then exits with a non-zero status. Registered in both
 * servers' `META-INF/spring.factories`.
 */
class InvalidSettingsFailureAnalyzer :
    AbstractFailureAnalyzer<SettingsRejected>(),
    Ordered {
    override fun analyze(rootFailure: Throwable, cause: SettingsRejected) = FailureAnalysis(
        "The settings are invalid:\n" + cause.problems.joinToString("\n") { "  $it" },
        "Fix the properties above (application config, system properties or --command-line arguments).",
        cause,
    )

    // Ahead of Spring Boot's own bind-failure analyzer, which would report the wrapper.
    override fun getOrder() = Ordered.HIGHEST_PRECEDENCE
}
