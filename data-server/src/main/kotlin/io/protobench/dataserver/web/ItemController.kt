package io.protobench.dataserver.web

import io.protobench.contract.message.ItemBatch
import io.protobench.contract.message.ItemCount
import io.protobench.dataserver.info.ServedRequests
import io.protobench.dataserver.message.ItemCatalog
import io.protobench.dataserver.message.MessageEnabled
import org.springframework.http.MediaType
import org.springframework.web.bind.annotation.GetMapping
import org.springframework.web.bind.annotation.RequestMapping
import org.springframework.web.bind.annotation.RequestParam
import org.springframework.web.bind.annotation.RestController

/**
 * A user's message over HTTP, `count` copies of its sample: Jackson writes the model's records
 * as a JSON array; the protobuf body is an [ItemBatch], encoded per request by the generated code.
 */
@RestController
@RequestMapping("/message")
@MessageEnabled
class ItemController(private val items: ItemCatalog, private val served: ServedRequests) {
    // requestId is accepted for symmetry with /data and ignored: the items carry none.

    @GetMapping("/json", produces = [MediaType.APPLICATION_JSON_VALUE])
    suspend fun json(@RequestParam(required = false) count: String?): List<Any> {
        served.count()
        return items.records(items.count(ItemCount.parse(count)))
    }

    @GetMapping("/binary", produces = [APPLICATION_PROTOBUF])
    suspend fun binary(@RequestParam(required = false) count: String?): ByteArray {
        served.count()
        return ItemBatch.write(items.messages(items.count(ItemCount.parse(count))))
    }
}
