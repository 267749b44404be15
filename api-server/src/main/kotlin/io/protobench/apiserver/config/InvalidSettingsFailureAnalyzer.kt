package io.protobench.apiserver.config

import org.springframework.boot.diagnostics.AbstractFailureAnalyzer
import org.springframework.boot.diagnostics.FailureAnalysis
import org.springframework.core.Ordered

/** Turns [InvalidSettings] at startup into a short report: one line per bad property, no stack trace. */
class InvalidSettingsFailureAnalyzer : AbstractFailureAnalyzer<InvalidSettings>(), Ordered {
    override fun analyze(rootFailure: Throwable, cause: InvalidSettings) = FailureAnalysis(
        "The gateway settings are invalid:\n" + cause.violations.joinToString("\n") { "  $it" },
        "Fix the properties above (application config, environment or --command-line arguments).",
        cause,
    )

    // Ahead of Spring Boot's own bind-failure analyzer, which would report the wrapper.
    override fun getOrder() = Ordered.HIGHEST_PRECEDENCE
}
