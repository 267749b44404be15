package io.protobench.bench.message

import com.google.protobuf.Descriptors.Descriptor
import io.protobench.contract.message.UserMessage
import java.io.StringWriter
import java.nio.file.Files
import java.nio.file.Path
import java.security.MessageDigest
import java.util.jar.JarEntry
import java.util.jar.JarOutputStream
import java.util.zip.ZipFile
import javax.tools.Diagnostic
import javax.tools.DiagnosticCollector
import javax.tools.JavaFileObject
import javax.tools.ToolProvider
import kotlin.io.path.extension
import kotlin.io.path.invariantSeparatorsPathString

/** A user's message built into a jar: protoc's classes and the plain model ([ModelSource]); [sha256] names this build. */
class MessageJar(val path: Path, val sha256: String) {
    /** The model class the servers load from it. */
    val modelClass: String get() = UserMessage.MODEL_CLASS
}

/**
 * Builds a checked message's code the way the lab's own contract is built: protoc's Java classes for
 * its .proto files (the project's protoc, the protobuf runtime's version), the plain model beside
 * them, both compiled by this JDK's compiler against the protobuf and Jackson the lab runs, in one jar.
 */
object MessageBuild {

    fun build(proto: Path, includes: List<Path>, type: Descriptor, protoc: Protoc, work: Path): MessageJar {
        val sources = Files.createDirectories(work.resolve("java"))
        // protobuf's own types are in its runtime already; the user's files (and their imports) are generated.
        val files = generatedFiles(type)
        protoc.javaSources(proto, includes, files, work, sources)
        val model = sources.resolve(ModelSource.PACKAGE.replace('.', '/')).resolve("${ModelSource.CLASS}.java")
        Files.createDirectories(model.parent)
        Files.writeString(model, ModelSource(type).text())
        val classes = compile(sources, Files.createDirectories(work.resolve("classes")), work)
        return jar(classes, work.resolve("message.jar"))
    }

    /** The .proto files whose classes the build generates: [type]'s file and its imports, but protobuf's own. */
    private fun generatedFiles(type: Descriptor): List<String> {
        val files = linkedSetOf<String>()
        fun visit(file: com.google.protobuf.Descriptors.FileDescriptor) {
            if (file.name.startsWith("google/protobuf/") || !files.add(file.name)) return
            file.dependencies.forEach(::visit)
        }
        visit(type.file)
        return files.toList()
    }

    private fun compile(sources: Path, classes: Path, work: Path): Path {
        val compiler = ToolProvider.getSystemJavaCompiler()
            ?: throw MessageProblem("this Java (${System.getProperty("java.home")}) has no compiler: run Proto-Bench on a JDK, not a JRE")
        val files = Files.walk(sources).use { paths -> paths.filter { it.extension == "java" }.map { it.toString() }.toList() }
        val classpath = listOf(com.google.protobuf.Message::class.java, com.fasterxml.jackson.annotation.JsonProperty::class.java)
            .map { ClassJars.jarOf(it, work) }.joinToString(java.io.File.pathSeparator)
        val options = listOf(
            "-d", classes.toString(),
            "-classpath", classpath,
            "--release", "17",
            "-proc:none",
            "-nowarn",
            "-encoding", "UTF-8",
        )
        val diagnostics = DiagnosticCollector<JavaFileObject>()
        val ok = compiler.getStandardFileManager(diagnostics, null, Charsets.UTF_8).use { fileManager ->
            compiler.getTask(
                StringWriter(),
                fileManager,
                diagnostics,
                options,
                null,
                fileManager.getJavaFileObjectsFromStrings(files),
            ).call()
        }
        if (!ok) {
            val errors = diagnostics.diagnostics.filter { it.kind == Diagnostic.Kind.ERROR }.take(MAX_ERRORS).joinToString("\n") {
                "${it.source?.name?.substringAfterLast('/')}:${it.lineNumber}: ${it.getMessage(null)}"
            }
            throw MessageProblem("the message's generated Java code did not compile, a case this version does not handle:\n$errors")
        }
        return classes
    }

    private fun jar(classes: Path, target: Path): MessageJar {
        JarOutputStream(Files.newOutputStream(target)).use { jar ->
            Files.walk(classes).use { paths ->
                paths.filter(Files::isRegularFile).sorted().forEach { file ->
                    // A fixed time on every entry: the same inputs give the same jar, so its sha256 names the code.
                    jar.putNextEntry(JarEntry(classes.relativize(file).invariantSeparatorsPathString).apply { time = ENTRY_TIME })
                    Files.copy(file, jar)
                    jar.closeEntry()
                }
            }
        }
        val digest = MessageDigest.getInstance("SHA-256").digest(Files.readAllBytes(target))
        return MessageJar(target, digest.joinToString("") { "%02x".format(it) })
    }

    private const val MAX_ERRORS = 10

    /** 2000-01-01T00:00:00Z: every entry's time, whenever the jar is built. */
    private const val ENTRY_TIME = 946_684_800_000L
}

/** Where a class's jar is, as a file javac can read: the jar itself, or a copy out of a Spring Boot executable jar. */
internal object ClassJars {

    fun jarOf(type: Class<*>, work: Path): String {
        val location = type.protectionDomain.codeSource?.location?.toString()
            ?: throw MessageProblem("cannot find the jar of ${type.name} to compile against")
        if (!location.startsWith("jar:")) return Path.of(java.net.URI(location)).toString()
        // Spring Boot's nested jars: jar:nested:/path/app.jar/!BOOT-INF/lib/x.jar!/ (older: jar:file:/path/app.jar!/BOOT-INF/lib/x.jar!/).
        val inner = location.removePrefix("jar:").removePrefix("nested:").removePrefix("file:").removeSuffix("!/")
        val outer = inner.substringBefore("!").removeSuffix("/")
        val entry = inner.substringAfter("!").removePrefix("/")
        val copy = Files.createDirectories(work.resolve("lib")).resolve(entry.substringAfterLast('/'))
        ZipFile(java.net.URLDecoder.decode(outer, Charsets.UTF_8)).use { zip ->
            val found = zip.getEntry(entry) ?: throw MessageProblem("cannot find $entry in $outer to compile against")
            zip.getInputStream(found).use { Files.copy(it, copy, java.nio.file.StandardCopyOption.REPLACE_EXISTING) }
        }
        return copy.toString()
    }
}
