package io.protobench.bench.scenario

import io.protobench.bench.text.Texts

/**
 * A network between the gateway and the data-server: round-trip delay, bandwidth and
 * packet loss. Built-in profiles name typical links (seed project B); any other is
 * written as `rtt=40ms,bandwidth=100mbit,loss=0.1%`.
 */
data class NetworkProfile(val name: String, val rttMs: Double, val bandwidthMbit: Double?, val lossPercent: Double) {
    val describe: String
        get() = listOfNotNull(
            "RTT ${number(rttMs)} ms",
            bandwidthMbit?.let { if (it >= 1000) "${number(it / 1000)} Gbit/s" else "${number(it)} Mbit/s" },
            lossPercent.takeIf { it > 0 }?.let { Texts.EN("link.loss", number(it)) },
        ).joinToString(", ")

    companion object {
        val BUILT_IN: List<NetworkProfile> = listOf(
            NetworkProfile("lan", 0.2, 1000.0, 0.0),
            NetworkProfile("dc", 0.5, 10_000.0, 0.0),
            NetworkProfile("region", 10.0, 1000.0, 0.0),
            NetworkProfile("wan", 40.0, 100.0, 0.1),
            NetworkProfile("mobile", 80.0, 10.0, 1.0),
        )

        const val ACCEPTED_FIELDS = "rtt (e.g. 40ms, 0.5ms, 1s), bandwidth (e.g. 100mbit, 10gbit, 512kbit) and loss (e.g. 0.1%)"
        private const val MAX_RTT_MS = 10_000.0
        private const val MAX_LOSS_PERCENT = 50.0

        /** A built-in profile by name, or `rtt=…,bandwidth=…,loss=…`; every mistake is named with what is accepted. */
        fun parse(text: String): NetworkProfile {
            val trimmed = text.trim()
            BUILT_IN.firstOrNull { it.name.equals(trimmed, ignoreCase = true) }?.let { return it }
            if (!trimmed.contains('=')) {
                throw InvalidProfile(
                    "unknown network profile '$trimmed': accepted ${BUILT_IN.joinToString(", ") { it.name }}, " +
                        "or $ACCEPTED_FIELDS as rtt=40ms,bandwidth=100mbit,loss=0.1%",
                )
            }
            val fields = trimmed.split(',').map { part ->
                val (key, value) = part.split('=', limit = 2).map { it.trim() }.let {
                    if (it.size == 2) {
                        it[0].lowercase() to it[1]
                    } else {
                        throw InvalidProfile("'$part' is not field=value; accepted $ACCEPTED_FIELDS")
                    }
                }
                key to value
            }
            val unknown = fields.map { it.first }.filter { it !in setOf("rtt", "bandwidth", "loss") }
            if (unknown.isNotEmpty()) throw InvalidProfile("unknown network field(s) ${unknown.joinToString()}: accepted $ACCEPTED_FIELDS")
            val duplicate = fields.groupBy { it.first }.filter { it.value.size > 1 }.keys
            if (duplicate.isNotEmpty()) throw InvalidProfile("network field(s) given twice: ${duplicate.joinToString()}")
            val values = fields.toMap()
            val rtt = values["rtt"]?.let(::rttMs)
                ?: throw InvalidProfile("a network profile needs rtt (e.g. rtt=40ms); accepted $ACCEPTED_FIELDS")
            val bandwidth = values["bandwidth"]?.let(::megabits)
            val loss = values["loss"]?.let(::lossPercent) ?: 0.0
            return NetworkProfile(trimmed, rtt, bandwidth, loss)
        }

        private fun rttMs(text: String): Double {
            val match = Regex("""^(\d+(?:\.\d+)?)\s*(ms|s)$""", RegexOption.IGNORE_CASE).matchEntire(text)
                ?: throw InvalidProfile("rtt '$text': accepted a number with ms or s, e.g. 40ms or 0.5ms")
            val ms = match.groupValues[1].toDouble() * if (match.groupValues[2].equals("s", true)) 1000 else 1
            if (ms > MAX_RTT_MS) throw InvalidProfile("rtt '$text': at most ${MAX_RTT_MS.toLong() / 1000} s")
            return ms
        }

        private fun megabits(text: String): Double {
            val match = Regex("""^(\d+(?:\.\d+)?)\s*(kbit|mbit|gbit)$""", RegexOption.IGNORE_CASE).matchEntire(text)
                ?: throw InvalidProfile("bandwidth '$text': accepted a number with kbit, mbit or gbit, e.g. 100mbit")
            val mbit = match.groupValues[1].toDouble() *
                when (match.groupValues[2].lowercase()) {
                    "kbit" -> 0.001
                    "gbit" -> 1000.0
                    else -> 1.0
                }
            if (mbit <= 0 || mbit > 100_000) throw InvalidProfile("bandwidth '$text': accepted above 0 and at most 100gbit")
            return mbit
        }

        private fun lossPercent(text: String): Double {
            val value = text.removeSuffix("%").trim().toDoubleOrNull()
            if (!text.endsWith("%") || value == null || value < 0 || value > MAX_LOSS_PERCENT) {
                throw InvalidProfile("loss '$text': accepted a percentage from 0% to ${MAX_LOSS_PERCENT.toInt()}%, e.g. 0.1%")
            }
            return value
        }

        internal fun number(value: Double) = if (value == Math.floor(value)) value.toLong().toString() else value.toString()
    }
}

class InvalidProfile(message: String) : RuntimeException(message)
