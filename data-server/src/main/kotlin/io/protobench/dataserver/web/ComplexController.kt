package io.protobench.dataserver.web

import io.protobench.contract.complex.ComplexityLevel
import io.protobench.contract.complex.LevelRecord
import io.protobench.contract.complex.RecordShape
import io.protobench.contract.proto.ComplexData
import io.protobench.dataserver.complex.ComplexMessages
import io.protobench.dataserver.complex.LevelCatalog
import io.protobench.dataserver.info.ServedRequests
import org.springframework.http.MediaType
import org.springframework.web.bind.annotation.GetMapping
import org.springframework.web.bind.annotation.RequestMapping
import org.springframework.web.bind.annotation.RequestParam
import org.springframework.web.bind.annotation.RestController

/**
 * Level objects over HTTP: Jackson writes the cached Kotlin object per request; the
 * protobuf body is the [ComplexMessages] message, serialized per request.
 */
@RestController
@RequestMapping("/complex")
class ComplexController(private val levels: LevelCatalog, private val messages: ComplexMessages, private val served: ServedRequests) {
    // requestId is accepted for symmetry with /data and ignored: the level objects carry none.

    @GetMapping("/json", produces = [MediaType.APPLICATION_JSON_VALUE])
    suspend fun json(@RequestParam(required = false) complexity: String?): LevelRecord {
        served.count()
        return levels.recordFor(ComplexityLevel.parse(complexity))
    }

    @GetMapping("/binary", produces = [APPLICATION_PROTOBUF])
    suspend fun binary(@RequestParam(required = false) complexity: String?): ComplexData {
        served.count()
        return messages.messageFor(ComplexityLevel.parse(complexity))
    }

    @GetMapping("/levels", produces = [MediaType.APPLICATION_JSON_VALUE])
    suspend fun levels(): List<RecordShape> = levels.shapes
}
