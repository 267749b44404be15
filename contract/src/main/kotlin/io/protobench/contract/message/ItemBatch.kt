package io.protobench.contract.message

import com.google.protobuf.CodedInputStream
import com.google.protobuf.CodedOutputStream
import com.google.protobuf.ExtensionRegistryLite
import com.google.protobuf.InvalidProtocolBufferException
import com.google.protobuf.Message
import com.google.protobuf.Parser
import com.google.protobuf.WireFormat
import io.grpc.Drainable
import io.grpc.KnownLength
import java.io.ByteArrayInputStream
import java.io.InputStream
import java.io.OutputStream

/**
 * A batch of items on the binary arms: the bytes a `repeated <type> items = 1` field of a
 * container message would have, written and read with the item's generated code, so the
 * user's .proto needs no container type. Each item is encoded (or decoded) in full, as a
 * container's generated code would.
 */
object ItemBatch {
    /** The container's field number of the items. */
    const val FIELD = 1

    // WireFormat.makeTag is not public: a tag is the field number shifted past the 3 bits of its wire type.
    private val TAG = (FIELD shl 3) or WireFormat.WIRETYPE_LENGTH_DELIMITED

    /** [items] encoded one after the other, each as field [FIELD]. */
    fun write(items: List<Message>): ByteArray {
        val bytes = ByteArray(items.sumOf { CodedOutputStream.computeMessageSize(FIELD, it) })
        val out = CodedOutputStream.newInstance(bytes)
        items.forEach { out.writeMessage(FIELD, it) }
        out.checkNoSpaceLeft()
        return bytes
    }

    /** The items of a batch's [bytes], each parsed by [parser]. */
    fun read(bytes: ByteArray, parser: Parser<out Message>): List<Message> = read(CodedInputStream.newInstance(bytes), parser)

    /** The items of a batch read from [stream] to its end. */
    fun read(stream: InputStream, parser: Parser<out Message>): List<Message> = read(CodedInputStream.newInstance(stream), parser)

    private fun read(input: CodedInputStream, parser: Parser<out Message>): List<Message> {
        input.setSizeLimit(Int.MAX_VALUE)
        @Suppress("UNCHECKED_CAST")
        val items = parser as Parser<Message>
        val read = ArrayList<Message>()
        while (true) {
            val tag = input.readTag()
            if (tag == 0) return read
            if (tag != TAG) throw InvalidProtocolBufferException("a batch holds only field $FIELD (length-delimited items); found tag $tag")
            read.add(input.readMessage(items, ExtensionRegistryLite.getEmptyRegistry()))
        }
    }

    /**
     * [items] as a stream gRPC drains into its own buffers (as grpc's protobuf marshaller hands
     * over a message: [Drainable], [KnownLength]), encoded only then; read byte by byte, it is
     * encoded into an array first.
     */
    class Encoding(private val items: List<Message>) :
        InputStream(),
        Drainable,
        KnownLength {
        private val size = items.sumOf { CodedOutputStream.computeMessageSize(FIELD, it) }
        private var drained = false
        private var bytes: ByteArrayInputStream? = null

        override fun drainTo(target: OutputStream): Int {
            check(!drained && bytes == null) { "a batch is drained once" }
            drained = true
            val out = CodedOutputStream.newInstance(target, minOf(size, BUFFER_BYTES).coerceAtLeast(1))
            items.forEach { out.writeMessage(FIELD, it) }
            out.flush()
            return size
        }

        override fun available(): Int = if (drained) 0 else bytes?.available() ?: size

        override fun read(): Int = array().read()

        override fun read(b: ByteArray, off: Int, len: Int): Int = array().read(b, off, len)

        private fun array(): ByteArrayInputStream {
            check(!drained) { "a drained batch has no bytes left" }
            return bytes ?: ByteArrayInputStream(write(items)).also { bytes = it }
        }

        private companion object {
            /** CodedOutputStream's buffer over the transport's stream, as protobuf sizes its own (4 KiB at most). */
            const val BUFFER_BYTES = 4096
        }
    }
}
