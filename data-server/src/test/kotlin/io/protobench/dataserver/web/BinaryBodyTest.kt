package io.protobench.dataserver.web

import org.assertj.core.api.Assertions.assertThat
import org.junit.jupiter.params.ParameterizedTest
import org.junit.jupiter.params.provider.CsvSource
import org.springframework.http.MediaType

class BinaryBodyTest {
    @ParameterizedTest
    @CsvSource(
        delimiter = '|',
        value = [
            "application/octet-stream                                  | RAW",
            "application/x-protobuf                                    | PROTOBUF",
            "*/*                                                       | PROTOBUF",
            "application/*                                             | PROTOBUF",
            "text/plain, application/octet-stream                      | RAW",
            "application/octet-stream, application/x-protobuf          | RAW",
            "application/x-protobuf, application/octet-stream          | PROTOBUF",
            "text/html                                                 | PROTOBUF",
        ],
    )
    fun `the first accepted type that admits one body decides, wildcards keep protobuf`(accept: String, body: BinaryBody) {
        assertThat(BinaryBody.negotiate(MediaType.parseMediaTypes(accept))).isEqualTo(body)
    }
}
