package io.protobench.bench.database

import java.io.File
import java.nio.file.Files
import java.nio.file.Path

/**
 * The installed PostgreSQL server programs a throw-away cluster needs. All three come from
 * one directory, so `initdb` never prepares a data directory for another major version
 * than the `postgres` that then refuses it.
 */
data class PostgresBinaries(val dir: Path) {
    val initdb: Path get() = dir.resolve("initdb")
    val pgCtl: Path get() = dir.resolve("pg_ctl")
    val postgres: Path get() = dir.resolve("postgres")

    companion object {
        val PROGRAMS = listOf("initdb", "pg_ctl", "postgres")

        /** Debian's package of the server programs (on Ubuntu too). */
        const val DEBIAN_PACKAGE = "postgresql"

        /** Where Debian's packages put each major version's programs: `/usr/lib/postgresql/<version>/bin`. */
        val DEBIAN_ROOT: Path = Path.of("/usr/lib/postgresql")

        /**
         * The first directory of [path] that holds all three programs, else the newest
         * `<version>/bin` under [versionsRoot] that does (Debian keeps `initdb` off the PATH).
         * Throws [PostgresMissing] naming what was searched and the package to install.
         */
        fun find(path: List<Path> = pathDirectories(), versionsRoot: Path = DEBIAN_ROOT): PostgresBinaries {
            val candidates = path + versionDirectories(versionsRoot)
            val found = candidates.firstOrNull(::holdsAll) ?: throw PostgresMissing(missingMessage(path, versionsRoot))
            return PostgresBinaries(found)
        }

        fun pathDirectories(): List<Path> = System.getenv("PATH").orEmpty().split(File.pathSeparator)
            .filter { it.isNotBlank() }.mapNotNull { runCatching { Path.of(it) }.getOrNull() }

        /** `<root>/<version>/bin`, newest version first (15 before 9.6). */
        private fun versionDirectories(root: Path): List<Path> {
            if (!Files.isDirectory(root)) return emptyList()
            val versions = Files.list(root).use { list -> list.toList() }.mapNotNull { dir -> versionOf(dir)?.let { dir to it } }
            return versions.sortedWith(compareByDescending(VERSION_ORDER) { it.second }).map { (dir, _) -> dir.resolve("bin") }
        }

        private fun versionOf(dir: Path): List<Int>? = dir.fileName.toString().split('.').map { it.toIntOrNull() ?: return null }

        private val VERSION_ORDER = Comparator<List<Int>> { a, b ->
            a.zip(b).map { (x, y) -> x.compareTo(y) }.firstOrNull { it != 0 } ?: a.size.compareTo(b.size)
        }

        private fun holdsAll(dir: Path): Boolean = PROGRAMS.all {
            Files.isRegularFile(dir.resolve(it)) &&
                Files.isExecutable(dir.resolve(it))
        }

        private fun missingMessage(path: List<Path>, versionsRoot: Path): String =
            "PostgreSQL's server programs (${PROGRAMS.joinToString(", ")}, all in one directory) were not found: searched the PATH " +
                "(${path.joinToString(":").ifEmpty { "empty" }}) and $versionsRoot/<version>/bin " +
                "(${if (Files.isDirectory(versionsRoot)) "no version there holds all three" else "absent"}). " +
                "Install them with: apt-get install $DEBIAN_PACKAGE (Debian and Ubuntu), or put the directory holding them on the PATH"
    }
}
