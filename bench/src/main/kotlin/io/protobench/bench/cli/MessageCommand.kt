package io.protobench.bench.cli

import com.github.ajalt.clikt.core.CliktCommand
import com.github.ajalt.clikt.core.Context
import com.github.ajalt.clikt.parameters.options.multiple
import com.github.ajalt.clikt.parameters.options.option
import com.github.ajalt.clikt.parameters.options.required
import io.protobench.bench.message.CodecBench
import io.protobench.bench.message.MessageBuild
import io.protobench.bench.message.MessageCheck
import io.protobench.bench.message.MessageProblem
import io.protobench.bench.message.Protoc
import io.protobench.bench.report.Numbers
import io.protobench.contract.Json
import io.protobench.contract.message.UserMessage
import java.nio.file.Files
import java.nio.file.InvalidPathException
import java.nio.file.Path

/**
 * `protobench message`: checks a user's own message — its .proto compiled by the project's protoc,
 * the type, a JSON sample read strictly into it — says what one item weighs on the wire as JSON and
 * as protobuf, and builds the code both sides would run (protoc's classes and the plain model for
 * Jackson, [MessageBuild]). The check a run of that message will make before it starts.
 */
class MessageCommand : CliktCommand(name = "message") {
    override fun help(context: Context) =
        "Check your own message (a .proto, its type and a JSON sample) and show its size as JSON and as protobuf, raw and gzipped."

    private val proto by option("--proto", help = PROTO_HELP).required()
    private val message by option("--message", help = "The message type, e.g. shop.Order").required()
    private val sample by option("--sample", help = "One message as JSON (protobuf's JSON mapping), e.g. order.json").required()
    private val includes by option(
        "-I",
        "--proto-path",
        help = "A folder the .proto's imports are relative to (repeatable; default: the .proto's folder)",
    ).multiple()

    override fun run() {
        val protoPath = path("--proto", proto)
        val samplePath = path("--sample", sample)
        val roots = includes.map { path("-I", it) }
        val work = Files.createTempDirectory("protobench-message")
        try {
            val protoc = Protoc.find()
            val checked = MessageCheck.check(protoPath, message, samplePath, roots, protoc, work)
            val jar = MessageBuild.build(protoPath, roots, checked.type, protoc, work)
            val s = checked.sizes
            echo(
                "${checked.type.fullName} from $protoPath (${checked.protoFiles} .proto files with its imports): " +
                    "the sample reads as one ${checked.type.name}",
            )
            echo("  JSON      ${bytes(s.json)} bytes, gzipped ${bytes(s.jsonGzip)}")
            echo(
                "  protobuf  ${bytes(s.protobuf)} bytes, gzipped ${bytes(s.protobufGzip)} " +
                    "(${Numbers.pct(100 * s.protobufShare)} of JSON's bytes)",
            )
            echo(
                "code for both sides compiles (protoc ${protoc.version}'s classes, a plain model for Jackson, the mapping): " +
                    "sha256 ${jar.sha256}",
            )
            val loaded = UserMessage.load(jar.path)
            val c = CodecBench().measure(loaded, loaded.parse(checked.sample.toByteArray()), Json.newMapper())
            val us = { ns: Double -> Numbers.number(ns / 1000.0) }
            echo(
                "one item apart from the transport (this JVM, median of ${c.rounds} rounds): " +
                    "JSON encode ${us(c.jsonEncodeNs)} µs, decode ${us(c.jsonDecodeNs)} µs; " +
                    "protobuf encode ${us(c.protobufEncodeNs)} µs, decode ${us(c.protobufDecodeNs)} µs",
            )
        } catch (e: MessageProblem) {
            invalid(e.message ?: "the message cannot be checked")
        } finally {
            work.toFile().deleteRecursively()
        }
    }

    private fun bytes(n: Int) = Numbers.number(n.toDouble())

    private fun path(flag: String, text: String): Path = try {
        Path.of(text)
    } catch (e: InvalidPathException) {
        invalid("$flag $text: not a path (${e.reason})")
    }

    companion object {
        /** `--proto`'s help wherever a command takes a message: here, `run` and `crossover`. */
        const val PROTO_HELP = "The .proto that defines --message, or a descriptor set holding it with its imports " +
            "(buf build -o, protoc --include_imports -o)"
    }
}
