package io.protobench.bench.architecture

import com.tngtech.archunit.core.domain.JavaClasses
import com.tngtech.archunit.core.importer.ClassFileImporter
import com.tngtech.archunit.core.importer.ImportOption
import com.tngtech.archunit.library.Architectures.layeredArchitecture
import com.tngtech.archunit.library.dependencies.SlicesRuleDefinition.slices
import org.junit.jupiter.api.Test

/**
 * The direction between bench's packages, read from the compiled classes (Kotlin's
 * bytecode: KDoc references do not count, calls, types and constants do). Each package
 * may use only those below it; a cycle anywhere fails. The order, top to bottom, is the
 * one docs/architecture.md draws.
 */
class ArchitectureTest {

    @Test
    fun `no package cycles`() {
        slices().matching("io.protobench.bench.(*)..").should().beFreeOfCycles().check(bench)
    }

    @Test
    fun `each package uses only the packages below it`() {
        layers().check(bench)
    }

    @Test
    fun `the lab's parts stand below the lab that assembles them`() {
        labParts().check(bench)
    }

    companion object {
        /**
         * The lab's own parts: the fork that assembles them (the `lab` package itself) on
         * top; starting processes, the driver's plans, the write path's bodies and ledger,
         * and remote servers below it; the HTTP clients of the servers' control endpoints
         * at the bottom.
         */
        fun labParts() = layeredArchitecture().consideringOnlyDependenciesInLayers()
            .layer("assembly").definedBy("$ROOT.lab")
            .layer("launch").definedBy("$ROOT.lab.launch..")
            .layer("plans").definedBy("$ROOT.lab.plans..")
            .layer("writes").definedBy("$ROOT.lab.writes..")
            .layer("remote").definedBy("$ROOT.lab.remote..")
            .layer("clients").definedBy("$ROOT.lab.clients..")
            .whereLayer("assembly").mayNotBeAccessedByAnyLayer()
            .whereLayer("launch").mayOnlyBeAccessedByLayers("assembly")
            .whereLayer("plans").mayOnlyBeAccessedByLayers("assembly")
            .whereLayer("writes").mayOnlyBeAccessedByLayers("assembly", "plans")
            .whereLayer("remote").mayOnlyBeAccessedByLayers("assembly", "launch")
            .whereLayer("clients").mayOnlyBeAccessedByLayers("assembly", "launch", "writes")

        private const val ROOT = "io.protobench.bench"

        val bench: JavaClasses by lazy {
            ClassFileImporter().withImportOption(ImportOption.DoNotIncludeTests()).importPackages(ROOT)
        }

        /**
         * The layers, top first, each with what may use it. Commands (cli) wire everything;
         * the searches and exports build on runs and reports; a report reads records and
         * verdicts, never the commands that produce them; the lab implements the run's and
         * the design's seams; the design (forks, planner) knows measurements, scenarios and
         * verdicts only.
         */
        fun layers() = layeredArchitecture().consideringOnlyDependenciesInLayers()
            .layer("cli").definedBy("$ROOT.cli..")
            .layer("tools").definedBy("$ROOT.compare..", "$ROOT.crossover..", "$ROOT.export..")
            .layer("report").definedBy("$ROOT.report..")
            .layer("lab").definedBy("$ROOT.lab..")
            .layer("run").definedBy("$ROOT.run..")
            .layer("links").definedBy("$ROOT.network..", "$ROOT.database..", "$ROOT.serve..")
            .layer("design").definedBy("$ROOT.design..")
            .layer("measure").definedBy("$ROOT.measure..")
            .layer("scenario").definedBy("$ROOT.scenario..")
            .layer("base").definedBy(
                "$ROOT.verdict..",
                "$ROOT.stats..",
                "$ROOT.text..",
                "$ROOT.process..",
                "$ROOT.json..",
                "$ROOT.message..",
            )
            .whereLayer("cli").mayNotBeAccessedByAnyLayer()
            .whereLayer("tools").mayOnlyBeAccessedByLayers("cli")
            .whereLayer("report").mayOnlyBeAccessedByLayers("cli", "tools")
            .whereLayer("lab").mayOnlyBeAccessedByLayers("cli", "tools")
            .whereLayer("run").mayOnlyBeAccessedByLayers("cli", "tools", "report", "lab")
            .whereLayer("links").mayOnlyBeAccessedByLayers("cli", "tools", "lab", "run")
            .whereLayer("design").mayOnlyBeAccessedByLayers("cli", "tools", "report", "lab", "run", "links")
            .whereLayer("measure").mayOnlyBeAccessedByLayers("cli", "tools", "report", "lab", "run", "links", "design")
            .whereLayer("scenario").mayOnlyBeAccessedByLayers("cli", "tools", "report", "lab", "run", "links", "design", "measure")
    }
}
