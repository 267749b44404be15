package io.protobench.bench.database

import org.assertj.core.api.Assertions.assertThat
import org.assertj.core.api.Assertions.assertThatThrownBy
import org.junit.jupiter.api.Test
import org.junit.jupiter.api.io.TempDir
import java.nio.file.Files
import java.nio.file.Path
import java.nio.file.attribute.PosixFilePermissions

/** Where the server programs are found, on fake PATH folders and a fake /usr/lib/postgresql. */
class PostgresBinariesTest {
    @TempDir lateinit var tmp: Path

    private val versions: Path get() = tmp.resolve("usr-lib-postgresql")

    private fun folder(name: String, vararg programs: String, executable: Boolean = true): Path {
        val dir = Files.createDirectories(tmp.resolve(name))
        programs.forEach { program ->
            val file = Files.writeString(dir.resolve(program), "#!/bin/sh\n")
            if (executable) Files.setPosixFilePermissions(file, PosixFilePermissions.fromString("rwxr-xr-x"))
        }
        return dir
    }

    private fun version(number: String, vararg programs: String = PostgresBinaries.PROGRAMS.toTypedArray()) =
        folder("usr-lib-postgresql/$number/bin", *programs)

    @Test
    fun `a PATH folder holding all three programs comes first`() {
        val onPath = folder("local-bin", "initdb", "pg_ctl", "postgres")
        version("16")

        assertThat(PostgresBinaries.find(listOf(onPath), versions).dir).isEqualTo(onPath)
        assertThat(PostgresBinaries.find(listOf(onPath), versions).pgCtl).isEqualTo(onPath.resolve("pg_ctl"))
    }

    @Test
    fun `without them on the PATH the newest version folder holding all three is taken`() {
        val onPath = folder("bin", "initdb", "pg_ctl") // postgres missing: not a set
        version("9.6")
        val newest = version("15")
        version("16", "initdb") // incomplete
        folder("usr-lib-postgresql/notes")

        assertThat(PostgresBinaries.find(listOf(onPath), versions).dir).isEqualTo(newest)
    }

    @Test
    fun `a program that is not executable does not count`() {
        val onPath = folder("bin", "initdb", "pg_ctl", "postgres", executable = false)

        assertThatThrownBy { PostgresBinaries.find(listOf(onPath), versions) }.isInstanceOf(PostgresMissing::class.java)
    }

    @Test
    fun `when absent the failure names the package to install and everything searched`() {
        val onPath = folder("bin", "initdb")

        assertThatThrownBy { PostgresBinaries.find(listOf(onPath, tmp.resolve("nowhere")), versions) }
            .isInstanceOf(PostgresMissing::class.java)
            .hasMessageContaining("apt-get install postgresql")
            .hasMessageContaining("initdb, pg_ctl, postgres")
            .hasMessageContaining("$onPath:${tmp.resolve("nowhere")}")
            .hasMessageContaining("$versions/<version>/bin (absent)")
        version("15", "initdb")
        assertThatThrownBy { PostgresBinaries.find(emptyList(), versions) }
            .hasMessageContaining("PATH (empty)").hasMessageContaining("no version there holds all three")
    }
}
