package io.protobench.contract

/**
 * The four ways the gateway can call the data-server. [pathSegment] is the part of
 * the gateway URL that selects it (`/api/data/<pathSegment>`), [label] the name the
 * seed project's scripts and reports use.
 */
enum class Protocol(val pathSegment: String, val label: String) {
    HTTP_JSON("http/json", "HTTP/JSON"),
    HTTP_BINARY("http/binary", "HTTP/Binary"),
    GRPC_UNARY("grpc", "gRPC/Unary"),
    GRPC_STREAM("grpc/stream", "gRPC/Stream"),
    ;

    companion object {
        val acceptedSegments: String get() = entries.joinToString(", ") { it.pathSegment }

        val acceptedLabels: String get() = entries.joinToString(", ") { it.label }

        fun fromPathSegment(segment: String): Protocol {
            ParameterText.bounded("protocol", segment, acceptedSegments)
            return entries.firstOrNull { it.pathSegment == segment }
                ?: throw InvalidParameter("protocol", segment, acceptedSegments)
        }

        /** Accepts a label ("gRPC/Unary"), a path segment ("grpc") or an enum name ("GRPC_UNARY"), any case. */
        fun parse(text: String): Protocol {
            ParameterText.bounded("protocol", text, acceptedLabels)
            return entries.firstOrNull {
                it.label.equals(text, true) || it.pathSegment.equals(text, true) || it.name.equals(text, true)
            } ?: throw InvalidParameter("protocol", text, acceptedLabels)
        }
    }
}
