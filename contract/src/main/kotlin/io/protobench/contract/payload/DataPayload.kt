package io.protobench.contract.payload

/**
 * The HTTP/JSON body for a payload request. Jackson writes [payload] as a base64
 * string, as any JSON API carrying bytes must.
 */
class DataPayload(
    val requestId: String,
    /** Number of payload bytes the sender put in [payload]. */
    val size: Int,
    val payload: ByteArray,
)
