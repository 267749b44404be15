package io.protobench.bench.export

/**
 * One Dockerfile per image: Eclipse Temurin's JRE 17 (the project's bytecode level) and the
 * module's exec jar, which the user copies beside it (README.md, step 1). Not YAML, so
 * written as text.
 */
object Dockerfiles {
    const val DATA_SERVER = "data-server.Dockerfile"
    const val GATEWAY = "gateway.Dockerfile"
    const val DRIVER = "load-driver.Dockerfile"
    const val BASE_IMAGE = "eclipse-temurin:17-jre"

    /** The modules whose exec jars the images carry, as README.md's step 1 copies them. */
    val MODULES = listOf("data-server", "api-server", "load-driver")

    /** The exec jar Maven builds for [module] at this version, e.g. `data-server-0.1.0-SNAPSHOT-exec.jar`. */
    fun jar(module: String) = "$module-${ProjectVersion.current}-exec.jar"

    fun all(): List<ExportFile> = listOf(
        ExportFile(
            DATA_SERVER,
            of("data-server", "The data-server", DATA_SERVER, listOf(ServerManifests.DATA_HTTP_PORT, ServerManifests.DATA_GRPC_PORT)),
        ),
        ExportFile(GATEWAY, of("api-server", "The gateway (api-server)", GATEWAY, listOf(ServerManifests.GATEWAY_PORT))),
        ExportFile(DRIVER, of("load-driver", "The load driver", DRIVER, emptyList())),
    )

    private fun of(module: String, what: String, file: String, ports: List<Int>) = listOfNotNull(
        "# $what of Proto-Bench ${ProjectVersion.current}. Build it in this folder once",
        "# ${jar(module)} is copied here (README.md, step 1):",
        "#   docker build -f $file -t <image> .",
        "FROM $BASE_IMAGE",
        "COPY ${jar(module)} /app/$module.jar",
        "# No privilege needed: any unprivileged user.",
        "USER 65532:65532",
        ports.takeIf { it.isNotEmpty() }?.let { "EXPOSE ${it.joinToString(" ")}" },
        "# JVM options come from JAVA_TOOL_OPTIONS, which the Deployment or Job sets (protobench run's).",
        "ENTRYPOINT [\"java\", \"-jar\", \"/app/$module.jar\"]",
    ).joinToString("\n", postfix = "\n")
}
