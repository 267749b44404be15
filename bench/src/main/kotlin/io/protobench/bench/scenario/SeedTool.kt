package io.protobench.bench.scenario

import io.protobench.contract.Protocol

/**
 * Seed 003's own load tools, each the driver of one protocol as the seed used it: hey
 * posts the member as JSON to the data-server's `POST /api/members`, ghz calls
 * `MemberService/CreateMember` (found by server reflection) with the same member as
 * proto3 JSON. Both are count-based (`-n` requests by `-c` workers) and send one fixed
 * body, as in the seed. They install with `go install` at the pinned [version].
 */
enum class SeedTool(val label: String, val protocol: Protocol, val goPackage: String, val version: String) {
    HEY("hey", Protocol.HTTP_JSON, "github.com/rakyll/hey", "v0.1.4"),
    GHZ("ghz", Protocol.GRPC_UNARY, "github.com/bojand/ghz/cmd/ghz", "v0.120.0"),
    ;

    companion object {
        fun of(protocol: Protocol): SeedTool? = entries.firstOrNull { it.protocol == protocol }
    }
}
