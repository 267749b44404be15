package io.protobench.bench.database

import com.github.ajalt.clikt.core.subcommands
import com.github.ajalt.clikt.testing.CliktCommandTestResult
import com.github.ajalt.clikt.testing.test
import io.protobench.bench.cli.DatabaseCommand
import io.protobench.bench.cli.DatabaseStartCommand
import io.protobench.bench.cli.DatabaseStatusCommand
import io.protobench.bench.cli.DatabaseStopCommand
import io.protobench.bench.cli.Protobench
import org.assertj.core.api.Assertions.assertThat
import org.junit.jupiter.api.Test
import org.junit.jupiter.api.io.TempDir
import java.nio.file.Path

/** `protobench db` refusing what it cannot do: exit 2, the reason on stderr, no stack trace, no PostgreSQL needed. */
class DatabaseCommandTest {
    @TempDir lateinit var tmp: Path

    private fun protobench(
        vararg argv: String,
        binaries: () -> PostgresBinaries = {
            PostgresBinaries.find()
        },
    ): CliktCommandTestResult = Protobench().subcommands(
        DatabaseCommand().subcommands(DatabaseStartCommand(binaries), DatabaseStopCommand(binaries), DatabaseStatusCommand()),
    ).test(argv.toList())

    private fun assertRefused(result: CliktCommandTestResult, vararg message: String) {
        assertThat(result.statusCode).describedAs(result.output).isEqualTo(2)
        assertThat(result.stderr).contains(*message).doesNotContain("Exception", "\tat ")
    }

    @Test
    fun `start without the server programs exits 2 naming the apt package, and creates nothing`() {
        val nowhere = { PostgresBinaries.find(listOf(tmp.resolve("bin")), tmp.resolve("usr-lib-postgresql")) }

        assertRefused(protobench("db", "start", "--dir", tmp.resolve("db").toString(), binaries = nowhere), "apt-get install postgresql")
        assertThat(tmp.resolve("db")).doesNotExist()
    }

    @Test
    fun `stop and status of a folder without a cluster exit 2 and say so`() {
        val dir = tmp.resolve("empty").toString()

        assertRefused(protobench("db", "stop", "--dir", dir, binaries = { PostgresBinaries(tmp) }), "no cluster in $dir")
        assertRefused(protobench("db", "status", "--dir", dir), "no cluster in $dir", "protobench db start --dir $dir")
    }

    @Test
    fun `a missing dir is Clikt's usage error`() {
        assertThat(protobench("db", "status").statusCode).isEqualTo(1)
    }
}
