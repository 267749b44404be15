package io.protobench.bench.message

import com.fasterxml.jackson.annotation.JsonInclude
import io.protobench.contract.Json
import io.protobench.contract.message.UserMessage
import java.nio.file.Files
import java.nio.file.Path
import java.security.MessageDigest

/** A user's message made ready for a run: the [jar] and [sample] (one item as protobuf bytes) both servers load, and what run.json keeps. */
class PreparedMessage(val jar: Path, val sample: Path, val record: MessageRecord) {
    fun dataServerArguments() = listOf("--protobench.data.message.jar=$jar", "--protobench.data.message.sample=$sample")

    fun gatewayArguments() = listOf("--protobench.gateway.message.jar=$jar", "--protobench.gateway.message.sample=$sample")
}

/**
 * What run.json keeps of a run's own message: its type, where its .proto and sample were and their
 * sha256 (so a reader can tell whether two runs carried the same message), the built jar's sha256,
 * the protoc that compiled it, and one item's bytes as compact JSON and as protobuf, raw and gzipped.
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
data class MessageRecord(
    val type: String,
    val proto: String,
    val protoSha256: String,
    val sample: String,
    val sampleSha256: String,
    val jarSha256: String,
    val protoc: String,
    val jsonBytes: Int,
    val jsonGzipBytes: Int,
    val protobufBytes: Int,
    val protobufGzipBytes: Int,
    /** Each codec's time per item apart from the transport ([CodecBench]); null where it was not measured. */
    val codecTimes: CodecTimes? = null,
)

/**
 * The step a run of a user's message starts with: `protobench message`'s check and build, into a
 * folder of the run, keeping only what the servers load (the jar and the sample's protobuf bytes),
 * then each codec timed on one item ([CodecBench]) while nothing else runs.
 */
object MessagePreparation {

    /** The check alone (protoc, the type, the sample read strictly), in a folder thrown away after: a run's first step. */
    fun check(proto: Path, type: String, sample: Path, includes: List<Path>) {
        val work = Files.createTempDirectory("protobench-message-check")
        try {
            MessageCheck.check(proto, type, sample, includes, Protoc.find(), work)
        } finally {
            work.toFile().deleteRecursively()
        }
    }

    fun prepare(proto: Path, type: String, sample: Path, includes: List<Path>, folder: Path): PreparedMessage {
        val work = Files.createDirectories(folder).resolve("build")
        val protoc = Protoc.find()
        try {
            val checked = MessageCheck.check(proto, type, sample, includes, protoc, Files.createDirectories(work))
            val built = MessageBuild.build(proto, includes, checked.type, protoc, work)
            val jar = Files.move(built.path, folder.resolve("message.jar"), java.nio.file.StandardCopyOption.REPLACE_EXISTING)
            val samplePath = Files.write(folder.resolve("sample.pb"), checked.sample.toByteArray())
            val loaded = UserMessage.load(jar)
            val codecs = CodecBench().measure(loaded, loaded.parse(Files.readAllBytes(samplePath)), Json.newMapper())
            val s = checked.sizes
            val record = MessageRecord(
                type = checked.type.fullName,
                proto = proto.toAbsolutePath().toString(),
                protoSha256 = sha256(proto),
                sample = sample.toAbsolutePath().toString(),
                sampleSha256 = sha256(sample),
                jarSha256 = built.sha256,
                protoc = protoc.version,
                jsonBytes = s.json,
                jsonGzipBytes = s.jsonGzip,
                protobufBytes = s.protobuf,
                protobufGzipBytes = s.protobufGzip,
                codecTimes = codecs,
            )
            return PreparedMessage(jar, samplePath, record)
        } finally {
            work.toFile().deleteRecursively()
        }
    }

    private fun sha256(file: Path): String =
        MessageDigest.getInstance("SHA-256").digest(Files.readAllBytes(file)).joinToString("") { "%02x".format(it) }
}
