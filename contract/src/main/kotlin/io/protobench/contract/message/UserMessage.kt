package io.protobench.contract.message

import com.google.protobuf.InvalidProtocolBufferException
import com.google.protobuf.Message
import com.google.protobuf.Parser
import java.net.URLClassLoader
import java.nio.file.Files
import java.nio.file.Path
import java.util.function.Function

/**
 * A user's own message as both servers carry it: the code `protobench message` built from the
 * user's .proto (protoc's classes and a plain model of records for Jackson, with the mapping
 * between them written field by field), loaded from its jar in a class loader of its own whose
 * parent holds the protobuf and Jackson this server runs. Reflection is used here, once, to find
 * the model's entry points; every call after that is the jar's own compiled code.
 */
class UserMessage private constructor(
    /** The message's full name in its .proto, e.g. `shop.v1.Order`. */
    val type: String,
    /** The model's record of the root type: what Jackson reads and writes on HTTP/JSON. */
    val modelClass: Class<*>,
    /** protoc's parser of the root type. */
    val parser: Parser<out Message>,
    private val toProto: Function<Any, Message>,
    private val fromProto: Function<Message, Any>,
) {
    /** The root type's empty message (grpc's marshaller of the stream's items is built from it). */
    val defaultInstance: Message = parser.parsePartialFrom(ByteArray(0)).defaultInstanceForType

    /** The generated message of a model [item] (the mapping the jar wrote out). */
    fun toProto(item: Any): Message = toProto.apply(item)

    /** The model's record of a generated [message]. */
    fun fromProto(message: Message): Any = fromProto.apply(message)

    /** One item from its protobuf bytes; a [MessageUnusable] when they are not one. */
    fun parse(bytes: ByteArray): Message = try {
        parser.parseFrom(bytes)
    } catch (e: InvalidProtocolBufferException) {
        throw MessageUnusable("the sample is not a protobuf $type: ${e.message}", e)
    }

    companion object {
        /** The model class in every jar `protobench message` builds (its package keeps clear of the user's). */
        const val MODEL_CLASS = "protobench.usermessage.Model"

        /** The message in [jar], loaded in a class loader of its own under [parent]. */
        fun load(jar: Path, parent: ClassLoader = UserMessage::class.java.classLoader): UserMessage {
            if (!Files.isRegularFile(jar)) throw MessageUnusable("no message jar at $jar (build one with `protobench message`)")
            val loader = URLClassLoader("user-message", arrayOf(jar.toUri().toURL()), parent)
            val model = try {
                loader.loadClass(MODEL_CLASS)
            } catch (e: ClassNotFoundException) {
                throw MessageUnusable("$jar has no $MODEL_CLASS: it was not built by `protobench message`", e)
            }
            return of(model)
        }

        /** The message whose model class is [model] (already loaded). */
        @Suppress("UNCHECKED_CAST")
        fun of(model: Class<*>): UserMessage = try {
            UserMessage(
                type = model.getField("TYPE").get(null) as String,
                modelClass = model.getMethod("root").invoke(null) as Class<*>,
                parser = model.getMethod("parser").invoke(null) as Parser<out Message>,
                toProto = model.getField("TO_PROTO").get(null) as Function<Any, Message>,
                fromProto = model.getField("FROM_PROTO").get(null) as Function<Message, Any>,
            )
        } catch (e: ReflectiveOperationException) {
            throw MessageUnusable(
                "${model.name} lacks an entry point this version needs (${e.message}): rebuild it with `protobench message`",
                e,
            )
        } catch (e: LinkageError) {
            throw MessageUnusable("${model.name} does not link against this server's protobuf and Jackson: ${e.message}", e)
        }
    }
}

/** A message jar or sample the server cannot use; the message says what was wrong. */
class MessageUnusable(message: String, cause: Throwable? = null) : RuntimeException(message, cause)
