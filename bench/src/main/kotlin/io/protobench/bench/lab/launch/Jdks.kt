package io.protobench.bench.lab.launch

import java.nio.file.Files
import java.nio.file.Path

/** An installed JDK: its home and the `JAVA_VERSION` of its `release` file ("17.0.15", "25.0.3"). */
data class Jdk(val home: Path, val version: String) {
    /** The feature release: 17 for "17.0.15", 25 for "25.0.3", 8 for "1.8.0_402". */
    val feature: Int get() = version.removePrefix("1.").takeWhile { it.isDigit() }.toIntOrNull() ?: 0

    val java: Path get() = home.resolve("bin").resolve("java")

    override fun toString() = "$feature ($home)"
}

/** A JDK was asked for that is not there; the message names what is installed. */
class NoSuchJdk(message: String) : RuntimeException(message)

/**
 * The JDKs installed on this machine, and which one a JDK choice means: a feature
 * version ("17", "25") or a path (a JDK's home or its `bin/java`). Found under the usual
 * install roots, JAVA_HOME and the JDK running protobench; a home counts when it has an
 * executable `bin/java` and a `release` file, so a JRE-only or half-removed folder does not.
 */
class Jdks(
    private val roots: List<Path> = DEFAULT_ROOTS,
    private val alsoHomes: List<Path> = listOfNotNull(System.getenv("JAVA_HOME")?.let(Path::of), Path.of(System.getProperty("java.home"))),
) {
    companion object {
        /** Where Debian/Ubuntu packages, Adoptium's installers and SDKMAN-style setups put JDKs. */
        val DEFAULT_ROOTS: List<Path> = listOf(Path.of("/usr/lib/jvm"), Path.of("/opt/java"), Path.of("/usr/local/lib/jvm"))

        /** The lowest feature release the servers (Spring Boot 3) run on. */
        const val MIN_FEATURE = 17

        /** The JDK whose home is [home], or null when it is none. */
        fun at(home: Path): Jdk? {
            val java = home.resolve("bin").resolve("java")
            val release = home.resolve("release")
            if (!Files.isExecutable(java) || !Files.isRegularFile(release)) return null
            val version = runCatching { Files.readAllLines(release) }.getOrDefault(emptyList())
                .firstOrNull { it.startsWith("JAVA_VERSION=") }
                ?.substringAfter('=')?.trim('"', ' ')
                ?: return null
            return Jdk(home, version)
        }
    }

    /** Every JDK found, once per real folder (symbolic links resolved), newest release first. */
    fun installed(): List<Jdk> {
        val homes = roots.filter(Files::isDirectory).flatMap { root -> Files.list(root).use { it.toList() } } + alsoHomes
        return homes.mapNotNull { home -> runCatching { home.toRealPath() }.getOrNull() }
            .distinct()
            .mapNotNull(::at)
            .sortedWith(compareByDescending<Jdk> { it.feature }.thenBy { it.home.toString() })
    }

    /** What [choice] names: an installed feature release, or the JDK at a path (its home or its java binary). */
    fun resolve(choice: String): Jdk {
        val text = choice.trim()
        if (text.isEmpty()) throw NoSuchJdk("an empty JDK choice; ${accepted()}")
        val jdk = text.toIntOrNull()?.let { feature ->
            installed().firstOrNull { it.feature == feature }
                ?: throw NoSuchJdk("no JDK $feature is installed; ${accepted()}")
        } ?: atPath(Path.of(text).toAbsolutePath().normalize())
        if (jdk.feature < MIN_FEATURE) {
            throw NoSuchJdk(
                "the JDK at ${jdk.home} is ${jdk.version}; the servers need $MIN_FEATURE or newer; ${accepted()}",
            )
        }
        return jdk
    }

    private fun atPath(path: Path): Jdk {
        // A java binary lives in <home>/bin/java.
        val home = if (path.fileName?.toString() == "java" && path.parent?.fileName?.toString() == "bin") path.parent.parent else path
        return runCatching { home.toRealPath() }.getOrNull()?.let(::at)
            ?: throw NoSuchJdk("$path is not a JDK (no executable bin/java and release file there); ${accepted()}")
    }

    private fun accepted(): String {
        val found = installed()
        val list = if (found.isEmpty()) "none found under ${roots.joinToString()}" else found.joinToString()
        return "give a feature release or a path to a JDK; installed: $list"
    }
}
