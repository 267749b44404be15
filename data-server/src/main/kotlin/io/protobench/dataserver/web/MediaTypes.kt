package io.protobench.dataserver.web

/** Content type of HTTP/Binary bodies: one serialized protobuf message. */
const val APPLICATION_PROTOBUF = "application/x-protobuf"
