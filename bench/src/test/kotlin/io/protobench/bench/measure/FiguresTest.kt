package io.protobench.bench.measure

import io.protobench.bench.json.JsonFiles
import org.assertj.core.api.Assertions.assertThat
import org.junit.jupiter.api.Test

/** A trial's figures read by [Figure], written as run.json has always held them: one object by key, in order. */
class FiguresTest {
    private val json = """{"throughput_rps":1000.5,"data_cpu_us_per_req":null,"api_cpu_us_per_req":300.0,"later_figure":2.5}"""

    @Test
    fun `figures read by key are read by Figure, a null apart from an absent figure`() {
        val figures = JsonFiles.mapper.readValue(json, Figures::class.java)
        assertThat(figures[Figure.THROUGHPUT]).isEqualTo(1000.5)
        assertThat(figures[Figure.DATA_CPU_US]).isNull()
        assertThat(Figure.DATA_CPU_US in figures).isTrue()
        assertThat(Figure.HOP_P50 in figures).isFalse()
    }

    @Test
    fun `they are written back as read, in the record's order, a key this version does not know kept`() {
        val figures = JsonFiles.mapper.readValue(json, Figures::class.java)
        assertThat(figures.unknown).containsExactly(java.util.Map.entry("later_figure", 2.5))
        assertThat(
            com.fasterxml.jackson.databind.ObjectMapper()
                .writeValueAsString(JsonFiles.mapper.readTree(JsonFiles.mapper.writeValueAsString(figures))),
        ).isEqualTo(json)
        assertThat(JsonFiles.mapper.readValue(JsonFiles.mapper.writeValueAsString(figures), Figures::class.java)).isEqualTo(figures)
    }

    @Test
    fun `adding figures keeps each in its place, the later value winning, as a map's plus`() {
        val figures = Figures.of(Figure.THROUGHPUT to 1.0, Figure.HOP_P50 to null) +
            Figures.of(Figure.API_CPU_US to 3.0, Figure.HOP_P50 to 2.0)
        assertThat(figures.byKey()).containsExactly(
            java.util.Map.entry(Figure.THROUGHPUT.key, 1.0),
            java.util.Map.entry(Figure.HOP_P50.key, 2.0),
            java.util.Map.entry(Figure.API_CPU_US.key, 3.0),
        )
        assertThat((figures + (Figure.THROUGHPUT to 5.0)).toMap().keys.first()).isEqualTo(Figure.THROUGHPUT)
    }

    @Test
    fun `a soak written before it kept its users reads and is written back without them`() {
        val old = """{"window":"3000ms","min":"30000ms","max":"150000ms","tolerance":0.05}"""
        val soak = JsonFiles.mapper.readValue(old, SoakSettings::class.java)
        assertThat(soak.vus).isNull()
        assertThat(soak.tolerance).isEqualTo(0.05)
        assertThat(
            com.fasterxml.jackson.databind.ObjectMapper()
                .writeValueAsString(JsonFiles.mapper.readTree(JsonFiles.mapper.writeValueAsString(soak))),
        ).isEqualTo(old)
    }
}
