package io.protobench.dataserver.message

import com.fasterxml.jackson.databind.ObjectMapper
import com.google.protobuf.CodedOutputStream
import com.google.protobuf.Message
import io.protobench.contract.InvalidParameter
import io.protobench.contract.message.ItemBatch
import io.protobench.contract.message.ItemCount
import io.protobench.contract.message.MessageUnusable
import io.protobench.contract.message.UserMessage
import io.protobench.contract.payload.PayloadSize
import io.protobench.dataserver.config.DataServerSettings
import org.springframework.stereotype.Component
import java.io.IOException
import java.nio.file.Files
import java.nio.file.Path
import java.util.Collections

/**
 * A user's message and its sample, loaded once at start and served in batches of `count`
 * copies, as a service serves objects it already holds: HTTP/JSON writes the model's record
 * through Jackson per request, the binary arms encode the generated message per request.
 * A batch is bounded so that neither form passes the 8 MiB a message may have here.
 */
@Component
@MessageEnabled
class ItemCatalog(settings: DataServerSettings, mapper: ObjectMapper) {
    val message: UserMessage = UserMessage.load(Path.of(settings.message.jar))

    /** The sample as the generated message: what the binary arms encode. */
    val item: Message = message.parse(sampleBytes(Path.of(settings.message.sample)))

    /** The sample as the model's record: what Jackson writes on HTTP/JSON. */
    val record: Any = message.fromProto(item)

    /** One item's bytes in a batch: as JSON (with its comma) and as protobuf (with its tag and length). */
    val jsonBytes: Int = mapper.writeValueAsBytes(record).size + 1
    val protobufBytes: Int = CodedOutputStream.computeMessageSize(ItemBatch.FIELD, item)

    /** The most items one answer carries: [ItemCount.MAX], or fewer where 8 MiB holds fewer. */
    val maxCount: Int = minOf(ItemCount.MAX, PayloadSize.MAX_BYTES / maxOf(jsonBytes, protobufBytes)).coerceAtLeast(1)

    /** A request's [count], checked against [maxCount]. */
    fun count(count: Int): Int {
        ItemCount.checked(count)
        if (count > maxCount) {
            throw InvalidParameter("count", count.toString(), "at most $maxCount items of ${message.type} (8 MiB in one answer)")
        }
        return count
    }

    /** [count] references to the record (Jackson writes each in full). */
    fun records(count: Int): List<Any> = Collections.nCopies(count, record)

    /** [count] references to the message (protobuf encodes each in full). */
    fun messages(count: Int): List<Message> = Collections.nCopies(count, item)

    private fun sampleBytes(path: Path): ByteArray = try {
        Files.readAllBytes(path)
    } catch (e: IOException) {
        throw MessageUnusable("cannot read the sample's protobuf bytes at $path: ${e.message}", e)
    }
}
