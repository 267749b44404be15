package io.protobench.bench.message

import com.google.protobuf.DescriptorProtos.FileDescriptorSet
import com.google.protobuf.RuntimeVersion
import java.nio.file.Files
import java.nio.file.Path
import java.nio.file.StandardCopyOption
import java.util.concurrent.TimeUnit

/** What is wrong with a user's message, its .proto or its sample, in words: what was wrong and what is accepted. */
class MessageProblem(message: String) : RuntimeException(message)

/**
 * The protoc of the project's own build, run to turn a user's .proto into descriptors. The build's
 * protobuf plugin fetches it into the local Maven repository as `com.google.protobuf:protoc`, at the
 * version of the protobuf runtime the servers run ([VERSION]), so a user's message is compiled as the
 * lab's own contract is. `PROTOBENCH_PROTOC` names another protoc.
 */
class Protoc(val executable: Path, val version: String) {

    /**
     * The descriptors of [proto] and everything it imports, as protoc writes them (`--include_imports`:
     * dependencies before the files that import them). [includes] are the import roots (`-I`); the
     * .proto's own folder when none is given. protobuf's well-known types (the .proto files under google/protobuf/)
     * are importable too: protoc's Maven artifact carries no include files, so they are copied from the
     * protobuf runtime into [work]. A descriptor set given for [proto] ([DescriptorSets]) is read as it
     * is, protoc not run.
     */
    fun descriptorSet(proto: Path, includes: List<Path>, work: Path): FileDescriptorSet {
        if (DescriptorSets.isDescriptorSet(proto)) return DescriptorSets.read(proto, includes)
        if (!Files.isRegularFile(proto)) throw MessageProblem("--proto $proto: no such file; give the .proto that defines your message")
        includes.firstOrNull { !Files.isDirectory(it) }?.let {
            throw MessageProblem("-I $it: no such folder; give the folders your .proto's imports are relative to")
        }
        val out = work.resolve("descriptors.pb")
        val arguments = listOf("--include_imports", "--descriptor_set_out=$out") + importRoots(proto, includes, work)
        val result = run(arguments + proto.toAbsolutePath().toString(), work)
        if (result.first != 0) {
            throw MessageProblem(
                "protoc $version could not compile $proto:\n${result.second.trim()}\n" +
                    "accepted: a .proto that protoc compiles with -I ${roots(proto, includes).joinToString(" -I ")} " +
                    "(give -I for the folders its imports are relative to)",
            )
        }
        return Files.newInputStream(out).use(FileDescriptorSet::parseFrom)
    }

    /**
     * protoc's Java classes for [files] (named as the descriptor set names them, relative to an import
     * root) written under [out]; [proto] and [includes] as for [descriptorSet] (a descriptor set goes to
     * protoc as it is, `--descriptor_set_in`).
     */
    fun javaSources(proto: Path, includes: List<Path>, files: List<String>, work: Path, out: Path) {
        Files.createDirectories(out)
        val inputs = if (DescriptorSets.isDescriptorSet(proto)) {
            listOf("--descriptor_set_in=${proto.toAbsolutePath()}")
        } else {
            importRoots(proto, includes, work)
        }
        val result = run(listOf("--java_out=$out") + inputs + files, work)
        if (result.first != 0) throw MessageProblem("protoc $version could not generate Java for $proto:\n${result.second.trim()}")
    }

    /** The import roots given, else the .proto's own folder; absolute, since protoc runs in its work folder. */
    private fun roots(proto: Path, includes: List<Path>): List<Path> =
        includes.ifEmpty { listOf(proto.toAbsolutePath().parent) }.map { it.toAbsolutePath() }

    private fun importRoots(proto: Path, includes: List<Path>, work: Path): List<String> =
        (roots(proto, includes) + wellKnownTypes(work)).map {
            "-I$it"
        }

    /** A copy of [executable] that may be run (Maven keeps the artifact without the execute bit). */
    private fun runnable(work: Path): Path {
        val copy = work.resolve("protoc")
        if (!Files.isExecutable(copy)) {
            Files.copy(executable, copy, StandardCopyOption.REPLACE_EXISTING)
            copy.toFile().setExecutable(true)
        }
        return copy
    }

    /** The protobuf runtime's own well-known types, under `google/protobuf/` of an include root in [work]. */
    private fun wellKnownTypes(work: Path): Path {
        val root = work.resolve("well-known")
        val folder = Files.createDirectories(root.resolve("google/protobuf"))
        WELL_KNOWN_TYPES.forEach { name ->
            Protoc::class.java.classLoader.getResourceAsStream("google/protobuf/$name.proto")?.use {
                Files.copy(it, folder.resolve("$name.proto"), StandardCopyOption.REPLACE_EXISTING)
            }
        }
        return root
    }

    /** protoc run with [arguments] in [work]: its exit code and what it printed. */
    private fun run(arguments: List<String>, work: Path): Pair<Int, String> {
        val command = listOf(runnable(work).toString()) + arguments
        val log = work.resolve("protoc.log")
        val process = ProcessBuilder(command).directory(work.toFile()).redirectErrorStream(true).redirectOutput(log.toFile()).start()
        if (!process.waitFor(TIMEOUT_SECONDS, TimeUnit.SECONDS)) {
            process.destroyForcibly()
            throw MessageProblem("protoc $version did not finish within $TIMEOUT_SECONDS s on ${command.last()}")
        }
        return process.exitValue() to Files.readString(log)
    }

    companion object {
        /** The protobuf runtime's version: the protoc that matches it. */
        val VERSION = "${RuntimeVersion.MAJOR}.${RuntimeVersion.MINOR}.${RuntimeVersion.PATCH}"
        const val ENV = "PROTOBENCH_PROTOC"
        private const val TIMEOUT_SECONDS = 60L
        private val WELL_KNOWN_TYPES = listOf(
            "any", "api", "descriptor", "duration", "empty", "field_mask", "source_context",
            "struct", "timestamp", "type", "wrappers",
        )

        /**
         * The protoc to use: [ENV]'s, else the build's in the local Maven repository ([repository]:
         * `maven.repo.local` or ~/.m2/repository) for this machine's system and architecture.
         */
        fun find(env: Map<String, String> = System.getenv(), repository: Path = localRepository()): Protoc {
            env[ENV]?.let { given ->
                val path = Path.of(given)
                if (!Files.isRegularFile(path)) {
                    throw MessageProblem(
                        "$ENV=$given: no such file; unset it to use the build's protoc $VERSION",
                    )
                }
                return Protoc(path, "($given)")
            }
            val classifier = classifier(System.getProperty("os.name"), System.getProperty("os.arch"))
                ?: throw MessageProblem(
                    "no protoc build for ${System.getProperty("os.name")} on ${System.getProperty("os.arch")}: " +
                        "set $ENV to a protoc $VERSION",
                )
            val artifact = repository.resolve("com/google/protobuf/protoc/$VERSION/protoc-$VERSION-$classifier.exe")
            if (!Files.isRegularFile(artifact)) {
                throw MessageProblem(
                    "protoc $VERSION not found at $artifact: build the project first (./protobench builds it, " +
                        "fetching protoc for the contract module), or set $ENV to a protoc $VERSION",
                )
            }
            return Protoc(artifact, VERSION)
        }

        /** protoc's Maven classifier for an operating system and architecture as the JVM names them; null for others. */
        fun classifier(osName: String, osArch: String): String? {
            val os = when {
                osName.startsWith("Linux", ignoreCase = true) -> "linux"
                osName.startsWith("Mac", ignoreCase = true) -> "osx"
                osName.startsWith("Windows", ignoreCase = true) -> "windows"
                else -> return null
            }
            val arch = when (osArch.lowercase()) {
                "amd64", "x86_64" -> "x86_64"
                "aarch64", "arm64" -> "aarch_64"
                else -> return null
            }
            return "$os-$arch"
        }

        private fun localRepository(): Path =
            System.getProperty("maven.repo.local")?.let(Path::of) ?: Path.of(System.getProperty("user.home"), ".m2", "repository")
    }
}
