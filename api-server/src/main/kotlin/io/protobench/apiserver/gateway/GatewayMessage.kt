package io.protobench.apiserver.gateway

import com.google.protobuf.CodedOutputStream
import io.protobench.apiserver.config.GatewaySettings
import io.protobench.contract.InvalidParameter
import io.protobench.contract.message.ItemBatch
import io.protobench.contract.message.ItemMethods
import io.protobench.contract.message.MessageUnusable
import io.protobench.contract.message.UserMessage
import org.springframework.stereotype.Component
import java.io.IOException
import java.nio.file.Files
import java.nio.file.Path

/**
 * The user's message the `/api/message` hops carry, when `protobench.gateway.message.jar`
 * names one: loaded once at start, in a class loader of its own (see [UserMessage]).
 */
@Component
class GatewayMessage(settings: GatewaySettings) {
    private val loaded: UserMessage? = settings.message.jar.takeIf { it.isNotEmpty() }?.let { UserMessage.load(Path.of(it)) }

    /** The gRPC methods of the message (null without one). */
    val methods: ItemMethods? = loaded?.let(::ItemMethods)

    /** One item's bytes in a batch, as the null hop reports them (0 without a message). */
    val itemBytes: Long = loaded?.let { message ->
        CodedOutputStream.computeMessageSize(ItemBatch.FIELD, message.parse(sample(settings.message.sample))).toLong()
    } ?: 0L

    /** The loaded message; an [InvalidParameter] naming the setting when this gateway has none. */
    fun required(): UserMessage = loaded ?: throw InvalidParameter(
        "message",
        null,
        "a gateway started with protobench.gateway.message.jar (and .sample), as `protobench run` starts it for a scenario with a message",
    )

    private fun sample(path: String): ByteArray = try {
        Files.readAllBytes(Path.of(path))
    } catch (e: IOException) {
        throw MessageUnusable("cannot read the sample's protobuf bytes at $path: ${e.message}", e)
    }
}
