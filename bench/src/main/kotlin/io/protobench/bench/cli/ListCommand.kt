package io.protobench.bench.cli

import com.github.ajalt.clikt.core.CliktCommand
import com.github.ajalt.clikt.core.Context

class ListCommand : CliktCommand(name = "list") {
    override fun help(context: Context) = "Show the built-in scenarios with their mode, conditions, forks, estimated time and description."
    private val lang by langOption("the table")
    override fun run() = io.protobench.bench.scenario.ScenarioList.lines(t = texts(lang)).forEach { echo(it) }
}
