package io.protobench.bench.message

import com.google.protobuf.DescriptorProtos.FileDescriptorProto
import com.google.protobuf.DescriptorProtos.FileDescriptorSet
import com.google.protobuf.InvalidProtocolBufferException
import java.nio.file.Files
import java.nio.file.Path

/**
 * A user's message given as a compiled descriptor set instead of .proto source: the binary
 * FileDescriptorSet that `buf build -o` or `protoc --include_imports -o` writes (ghz's and grpcurl's
 * `--protoset`), for a schema whose .proto files are not at hand. `--proto` reads any file whose name
 * does not end in `.proto` as one. It must hold every file it imports, protobuf's own too: nothing
 * is looked up beside it, so `-I` has no use with it.
 */
internal object DescriptorSets {

    /** How to make an acceptable set, for the messages that refuse one. */
    private const val ACCEPTED =
        "accepted: a .proto file, or a descriptor set with its imports (a name not ending in .proto, as " +
            "`buf build -o shop.binpb` or `protoc --include_imports -o shop.pb shop.proto` write it)"

    /** Whether [proto] names a descriptor set rather than .proto source. */
    fun isDescriptorSet(proto: Path): Boolean = !proto.fileName.toString().endsWith(".proto")

    /** The set in [file], every file after the files it imports (as protoc's `--include_imports` orders them; another tool need not). */
    fun read(file: Path, includes: List<Path>): FileDescriptorSet {
        if (!Files.isRegularFile(file)) throw MessageProblem("--proto $file: no such file; $ACCEPTED")
        if (includes.isNotEmpty()) {
            throw MessageProblem("-I ${includes.first()}: a descriptor set ($file) carries its imports itself; give -I only with a .proto")
        }
        val set = try {
            Files.newInputStream(file).use(FileDescriptorSet::parseFrom)
        } catch (e: InvalidProtocolBufferException) {
            throw MessageProblem("--proto $file is not a descriptor set (${e.message}); $ACCEPTED")
        }
        if (set.fileCount == 0 || set.fileList.any { it.name.isBlank() }) {
            throw MessageProblem("--proto $file holds no named .proto files, so it is not a descriptor set; $ACCEPTED")
        }
        return FileDescriptorSet.newBuilder().addAllFile(dependenciesFirst(set.fileList, file)).build()
    }

    /** [files] ordered so that each comes after what it imports; an import the set does not hold is refused. */
    private fun dependenciesFirst(files: List<FileDescriptorProto>, source: Path): List<FileDescriptorProto> {
        val byName = files.associateBy { it.name }
        val ordered = linkedMapOf<String, FileDescriptorProto>()
        val open = mutableSetOf<String>()
        fun visit(file: FileDescriptorProto) {
            if (file.name in ordered) return
            if (!open.add(file.name)) throw MessageProblem("--proto $source: ${file.name} imports itself through its imports; $ACCEPTED")
            for (name in file.dependencyList) {
                val imported = byName[name] ?: throw MessageProblem(
                    "--proto $source: ${file.name} imports $name, which the descriptor set does not hold: " +
                        "build it with its imports; $ACCEPTED",
                )
                visit(imported)
            }
            ordered[file.name] = file
        }
        files.forEach(::visit)
        return ordered.values.toList()
    }
}
