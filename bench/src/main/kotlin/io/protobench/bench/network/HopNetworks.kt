package io.protobench.bench.network

import io.protobench.bench.design.ServerSettingRejected
import io.protobench.bench.measure.LinkRecord
import io.protobench.bench.network.LinkNotApplicable
import io.protobench.bench.network.LinkSetupFailed
import io.protobench.bench.scenario.NetworkProfile
import io.protobench.bench.scenario.Variant

/**
 * Every link the hop crosses in a run: the run's own (`run --network`), used by every pair
 * without a profile of its own, and one per profile the scenario's variants name (seed
 * project B compares networks as variants, in the same forks). Each link is built and
 * measured before the results folder exists.
 *
 * The run's own link must hold, or the run stops. A variant's link that was built but
 * measured outside the profile (a sub-millisecond RTT through the user-space relay, say)
 * rejects that variant when its first pair would start: the run goes on with the others
 * and the record keeps the measured figures as the reason, since what this machine can
 * hold is a finding. A variant's link this machine has no mechanism for (no iptables for
 * loss without netem, no namespaces) stops the run before it starts, naming the missing
 * piece: that is a setup the user can mend, and going on would spend the whole budget on
 * a design without the network the scenario compares. When no variant would be left, the
 * run stops before it starts too.
 */
class HopNetworks private constructor(
    private val runLink: HopLink?,
    private val links: Map<String, HopLink>,
    private val refusals: Map<String, String>,
) : AutoCloseable {
    /**
     * The link [variant]'s data-server sits behind: its own profile's, else the run's; null
     * for loopback. Throws [ServerSettingRejected] when the variant's profile did not hold.
     */
    fun forVariant(variant: Variant?): HopLink? {
        val profile = variant?.network ?: return runLink
        refusals[profile]?.let { throw ServerSettingRejected(it) }
        return links.getValue(profile)
    }

    /** run.json's account of the run's own link; null: loopback. */
    fun runRecord(): LinkRecord? = runLink?.record

    /** run.json's account of each variant's link, by variant: what was measured, or why it was refused. */
    fun variantRecords(variants: List<Variant>): Map<String, LinkRecord> = variants.mapNotNull { variant ->
        val profile = variant.network ?: return@mapNotNull null
        variant.name to (links[profile]?.record ?: LinkRecord(profile, refused = refusals[profile]))
    }.toMap()

    override fun close() {
        (links.values + listOfNotNull(runLink)).forEach { runCatching { it.close() } }
    }

    companion object {
        val NONE = HopNetworks(null, emptyMap(), emptyMap())

        /**
         * Opens the run's link for [runProfile] (throwing [LinkSetupFailed] when it cannot be
         * applied or does not hold) and one link per distinct profile of [variants].
         */
        fun open(
            variants: List<Variant>,
            runProfile: NetworkProfile?,
            progress: (String) -> Unit,
            opener: (NetworkProfile) -> HopLink = { HopNetwork.open(it, progress = progress) },
        ): HopNetworks {
            val profiles = variants.mapNotNull { it.network }.distinct()
            fun namesOn(profile: String) = variants.filter { it.network == profile }.joinToString { it.name }
            if (runProfile == null && profiles.isEmpty()) return NONE
            val opened = mutableListOf<HopLink>()
            try {
                val runLink = runProfile?.let(opener)?.also { opened += it }
                val links = mutableMapOf<String, HopLink>()
                val refusals = mutableMapOf<String, String>()
                for (profile in profiles) {
                    try {
                        links[profile] = opener(NetworkProfile.parse(profile)).also { opened += it }
                    } catch (e: LinkNotApplicable) {
                        throw LinkNotApplicable(
                            "${e.message}; the scenario compares network $profile (variant(s) ${namesOn(profile)}), " +
                                "so the run stops before it starts rather than go on without it: " +
                                "supply what is missing, or run a scenario without that network",
                        )
                    } catch (e: LinkSetupFailed) {
                        refusals[profile] = e.message ?: "the link could not be set up"
                    }
                }
                if (profiles.isNotEmpty() && variants.none { it.network == null || it.network in links }) {
                    throw LinkSetupFailed(
                        "no variant's network can be applied as asked on this machine: " +
                            refusals.entries.joinToString("; ") { (profile, why) -> "$profile: $why" },
                    )
                }
                refusals.forEach { (profile, why) ->
                    progress("variant(s) ${namesOn(profile)} will be rejected, the run goes on without them: $why")
                }
                return HopNetworks(runLink, links, refusals)
            } catch (e: Exception) {
                opened.forEach { runCatching { it.close() } }
                throw e
            }
        }
    }
}
