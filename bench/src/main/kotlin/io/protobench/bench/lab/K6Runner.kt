package io.protobench.bench.lab

import io.protobench.bench.scenario.LoadLevel
import io.protobench.bench.scenario.Arm
import io.protobench.bench.scenario.Cell
import io.protobench.bench.scenario.Target
import io.protobench.contract.Protocol
import io.protobench.contract.payload.PayloadSize
import io.protobench.contract.proto.DataResponse
import com.fasterxml.jackson.annotation.JsonInclude
import com.google.protobuf.ByteString
import com.fasterxml.jackson.databind.JsonNode
import com.fasterxml.jackson.databind.ObjectMapper
import io.protobench.bench.measure.TrialFigures
import io.protobench.bench.scenario.DurationText
import java.nio.file.Files
import java.nio.file.Path
import java.time.Duration
import java.util.concurrent.TimeUnit

/**
 * One endpoint k6 calls and the answer it must get: [field] equal to [value] (null: any
 * value above 0). Through the gateway [call] is null and [path] a gateway path; called
 * directly (`topology: direct`) [call] says how (see [direct]) and the script checks the
 * answer the data-server itself sends. A member creation has a [body]: the file k6 POSTs,
 * whose emails start at the byte offsets [emails] (see [MemberBodies]).
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
data class K6Target(
    val path: String, val field: String, val value: Long?, val call: String? = null, val size: String? = null,
    val body: String? = null, val emails: List<Int>? = null,
) {
    companion object {
        /** The gateway call of [cell] as k6's script takes it: the driver's target ([DriverPlans.target]) in k6's fields. */
        fun of(cell: Cell, levelBytes: (level: String, arm: Arm) -> Long?, bodies: MemberBodies? = null): K6Target =
            DriverPlans.target(cell, levelBytes, bodies).let { K6Target(it.path, checkNotNull(it.field), it.value, body = it.body, emails = it.emails) }
    }
}

/** What the k6-operator export gives its script (until the export moves to the lab's driver). */
object K6Invocation {
    private val json = ObjectMapper()

    /**
     * What `protobench.js` reads to make one run, wherever k6 runs: the gateway, the
     * endpoints with their expected answers, the load model and the duration. Where the
     * summary goes (SUMMARY_PATH) is the caller's to add.
     */
    fun scriptEnvironment(gatewayUrl: String, targets: List<K6Target>, offered: LoadLevel, duration: Duration): Map<String, String> {
        val load = when (offered) {
            is LoadLevel.Vus -> mapOf("LOAD_MODEL" to "closed", "VUS" to offered.vus.toString())
            is LoadLevel.Rate -> mapOf(
                "LOAD_MODEL" to "open", "RATE" to offered.perSecond.toString(),
                "START_VUS" to offered.startVus.toString(), "MAX_VUS" to offered.maxVus.toString(),
            )
        }
        return mapOf(
            "BASE_URL" to gatewayUrl,
            "TARGETS" to json.writeValueAsString(targets),
            "DURATION" to DurationText.k6(duration),
            "COLD_CALLS" to TrialFigures.COLD_CALLS.toString(),
        ) + load
    }
}
