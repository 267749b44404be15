package io.protobench.dataserver.payload

import com.fasterxml.jackson.core.JsonGenerator
import com.fasterxml.jackson.databind.SerializerProvider
import com.fasterxml.jackson.databind.annotation.JsonSerialize
import com.fasterxml.jackson.databind.ser.std.StdSerializer

/**
 * The HTTP/JSON payload body, `{"requestId", "size", "payload": base64}`, exactly as
 * the contract's [io.protobench.contract.payload.DataPayload] reads it. The payload is
 * the first [size] bytes of [buffer] (the catalog's shared buffer), base64-encoded per
 * request straight from it, as Jackson encodes any byte array: no copy, no cache.
 */
@JsonSerialize(using = PayloadJson.Writer::class)
class PayloadJson(val requestId: String, val size: Int, private val buffer: ByteArray) {

    class Writer : StdSerializer<PayloadJson>(PayloadJson::class.java) {
        override fun serialize(value: PayloadJson, generator: JsonGenerator, provider: SerializerProvider) {
            generator.writeStartObject()
            generator.writeStringField("requestId", value.requestId)
            generator.writeNumberField("size", value.size)
            generator.writeFieldName("payload")
            generator.writeBinary(provider.config.base64Variant, value.buffer, 0, value.size)
            generator.writeEndObject()
        }
    }
}
