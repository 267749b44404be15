package io.protobench.dataserver.payload

import io.protobench.contract.payload.PayloadSize

/** What `GET /data/sizes` answers: the sizes the seeds measured and what else is accepted. */
data class SizeCatalog(
    val seedSizes: List<String>,
    /** Largest accepted payload, bytes. */
    val maxBytes: Int,
    val accepted: String,
) {
    companion object {
        val CURRENT = SizeCatalog(PayloadSize.SEED_SIZES, PayloadSize.MAX_BYTES, PayloadSize.ACCEPTED)
    }
}
