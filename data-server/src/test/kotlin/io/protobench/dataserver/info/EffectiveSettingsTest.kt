package io.protobench.dataserver.info

import io.protobench.dataserver.config.DataServerSettings
import org.assertj.core.api.Assertions.assertThat
import org.junit.jupiter.api.Test

class EffectiveSettingsTest {
    @Test
    fun `the reported database settings carry no password, not even one written in the URL`() {
        val settings = DataServerSettings.Db(
            url = "jdbc:postgresql://db.example/members?user=bench&password=s3cret&ssl=true",
            user = "bench",
            password = "hunter22",
            poolSize = 20,
        )
        val reported = EffectiveSettings.Db.of(settings)
        assertThat(reported.url).isEqualTo("jdbc:postgresql://db.example/members?user=bench&password=***&ssl=true")
        assertThat(reported.toString()).doesNotContain("s3cret", "hunter22")
        assertThat(EffectiveSettings.Db.of(settings.copy(url = "jdbc:h2:mem:x;USER=sa;PASSWORD=pw;DB_CLOSE_DELAY=-1")).url)
            .isEqualTo("jdbc:h2:mem:x;USER=sa;PASSWORD=***;DB_CLOSE_DELAY=-1")
    }
}
