package io.protobench.bench.lab.launch

import org.assertj.core.api.Assertions.assertThat
import org.assertj.core.api.Assertions.assertThatThrownBy
import org.junit.jupiter.api.Test
import org.junit.jupiter.api.io.TempDir
import java.nio.file.Files
import java.nio.file.Path
import java.nio.file.attribute.PosixFilePermissions

/** Which JDK a choice names, on a fake install root. */
class JdksTest {
    @TempDir lateinit var root: Path

    private fun jdk(name: String, version: String?, executable: Boolean = true): Path {
        val home = Files.createDirectories(root.resolve(name))
        val java = Files.createDirectories(home.resolve("bin")).resolve("java")
        Files.writeString(java, "#!/bin/sh\n")
        if (executable) Files.setPosixFilePermissions(java, PosixFilePermissions.fromString("rwxr-xr-x"))
        version?.let { Files.writeString(home.resolve("release"), "IMPLEMENTOR=\"Test\"\nJAVA_VERSION=\"$it\"\n") }
        return home
    }

    private fun jdks() = Jdks(roots = listOf(root), alsoHomes = emptyList())

    @Test
    fun `installed JDKs are found once each, newest first, and only where java and release are both there`() {
        jdk("java-17-openjdk-amd64", "17.0.15")
        jdk("temurin-25-jdk-amd64", "25.0.3")
        jdk("jre-only", null)
        jdk("broken", "21.0.1", executable = false)
        Files.createSymbolicLink(root.resolve("java-1.17.0-openjdk-amd64"), root.resolve("java-17-openjdk-amd64"))

        assertThat(jdks().installed().map { it.feature to it.home.fileName.toString() })
            .containsExactly(25 to "temurin-25-jdk-amd64", 17 to "java-17-openjdk-amd64")
    }

    @Test
    fun `a feature release, a home and a java binary all name a JDK`() {
        val home = jdk("temurin-25-jdk-amd64", "25.0.3")
        jdk("java-17-openjdk-amd64", "17.0.15")

        assertThat(jdks().resolve("25").home).isEqualTo(home.toRealPath())
        assertThat(jdks().resolve(home.toString()).version).isEqualTo("25.0.3")
        assertThat(jdks().resolve(home.resolve("bin/java").toString()).java).isEqualTo(home.toRealPath().resolve("bin/java"))
        assertThat(jdks().resolve(" 17 ").feature).isEqualTo(17)
    }

    @Test
    fun `a JDK that is not there, or too old, is an error naming what is installed`() {
        jdk("temurin-25-jdk-amd64", "25.0.3")
        val old = jdk("jdk8", "1.8.0_402")

        assertThatThrownBy { jdks().resolve("21") }.isInstanceOf(NoSuchJdk::class.java)
            .hasMessageContaining("no JDK 21 is installed").hasMessageContaining("installed: 25 (")
        assertThatThrownBy { jdks().resolve(root.resolve("nowhere").toString()) }.isInstanceOf(NoSuchJdk::class.java)
            .hasMessageContaining("is not a JDK").hasMessageContaining("temurin-25-jdk-amd64")
        assertThatThrownBy { jdks().resolve(old.toString()) }.isInstanceOf(NoSuchJdk::class.java)
            .hasMessageContaining("1.8.0_402").hasMessageContaining("17 or newer")
        assertThatThrownBy { jdks().resolve("") }.isInstanceOf(NoSuchJdk::class.java).hasMessageContaining("empty")
    }

    @Test
    fun `with nothing installed the message says where it looked`() {
        assertThatThrownBy { jdks().resolve("17") }.hasMessageContaining("none found under $root")
    }
}
