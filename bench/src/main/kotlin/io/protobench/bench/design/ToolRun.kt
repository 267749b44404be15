package io.protobench.bench.design

import io.protobench.bench.scenario.SeedTool

/** One run of a seed tool: where it sends, how much, with which body. */
data class ToolRun(val tool: SeedTool, val concurrency: Int, val requests: Int)
