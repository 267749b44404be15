package io.protobench.bench.json

import com.fasterxml.jackson.databind.ObjectMapper
import com.fasterxml.jackson.databind.SerializationFeature
import java.nio.file.Files
import java.nio.file.Path
import java.nio.file.StandardCopyOption
import java.nio.file.attribute.PosixFilePermissions

/**
 * How the lab writes its JSON files (run.json, a crossover's record, a cluster's state):
 * one mapper, indented, and writes that never leave half a file.
 */
object JsonFiles {
    /** The contract's mapper (Kotlin classes, java.time as ISO text, unknown fields ignored), indented for people who read run.json. */
    val mapper: ObjectMapper = io.protobench.contract.Json.newMapper().enable(SerializationFeature.INDENT_OUTPUT)

    /**
     * Writes [bytes] to [target] through a temporary file that is flushed to disk
     * before it replaces the target, so a crash or power loss leaves the old file or
     * the new one, never half of one. [ownerOnly]: readable by its owner alone (rw-------),
     * from its first byte, for a file that holds a password.
     */
    fun writeAtomically(target: Path, bytes: ByteArray, ownerOnly: Boolean = false) {
        val temporary = target.resolveSibling(target.fileName.toString() + ".tmp")
        val permissions: Array<java.nio.file.attribute.FileAttribute<*>> =
            if (ownerOnly) arrayOf(PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rw-------"))) else emptyArray()
        if (ownerOnly) Files.deleteIfExists(temporary) // permissions are given only to a file created now
        val options = setOf(
            java.nio.file.StandardOpenOption.CREATE,
            java.nio.file.StandardOpenOption.TRUNCATE_EXISTING,
            java.nio.file.StandardOpenOption.WRITE,
        )
        java.nio.channels.FileChannel.open(temporary, options, *permissions).use { channel ->
            channel.write(java.nio.ByteBuffer.wrap(bytes))
            channel.force(true)
        }
        Files.move(temporary, target, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE)
    }
}
