package io.protobench.bench.database

import io.protobench.bench.scenario.Variant
import io.protobench.bench.testkit.PROCESS
import org.assertj.core.api.Assertions.assertThat
import org.assertj.core.api.Assertions.assertThatThrownBy
import org.junit.jupiter.api.AfterAll
import org.junit.jupiter.api.Assumptions.assumeTrue
import org.junit.jupiter.api.BeforeAll
import org.junit.jupiter.api.Tag
import org.junit.jupiter.api.Test
import org.junit.jupiter.api.TestInstance
import java.nio.file.Files
import java.nio.file.Path
import java.nio.file.attribute.PosixFilePermissions
import java.sql.DriverManager

/**
 * `run --db-url`: what the flags accept, which data-servers write there, and the checks
 * against a real PostgreSQL (a throw-away cluster standing in for somebody's database;
 * those tests skip where PostgreSQL is not installed): a login that fails, a schema holding
 * somebody else's tables, a user who may not create the schema, and the table emptied at the end.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
@Tag(PROCESS)
class ExternalDatabaseTest {
    private var cluster: RunningCluster? = null
    private val tmp: Path = Files.createTempDirectory("protobench-external-db-")

    @BeforeAll
    fun startCluster() {
        val binaries = runCatching { PostgresBinaries.find() }.getOrNull() ?: return
        Files.setPosixFilePermissions(tmp, PosixFilePermissions.fromString("rwxr-xr-x"))
        cluster = PostgresCluster(binaries).start(tmp.resolve("db"))
    }

    @AfterAll
    fun stopCluster() {
        cluster?.stop()
        tmp.toFile().deleteRecursively()
    }

    private fun running(): RunningCluster {
        assumeTrue(cluster != null, "PostgreSQL's server programs are not installed (Debian package postgresql)")
        return cluster!!
    }

    private fun database(schema: String, user: String? = null, password: String? = null): ExternalDatabase {
        val c = running()
        return ExternalDatabase.of(c.jdbcUrl, user ?: c.user, schema, mapOf(ExternalDatabase.PASSWORD_VARIABLE to (password ?: c.password)))
    }

    private fun sql(vararg statements: String) = running().let { c ->
        DriverManager.getConnection(c.jdbcUrl, c.user, c.password).use { connection ->
            connection.createStatement().use { s -> statements.forEach(s::execute) }
        }
    }

    private fun count(sql: String): Long = running().let { c ->
        DriverManager.getConnection(c.jdbcUrl, c.user, c.password).use { connection ->
            connection.createStatement().use { s ->
                s.executeQuery(sql).use {
                    it.next()
                    it.getLong(1)
                }
            }
        }
    }

    @Test
    fun `the user may come from the URL, the password only from the environment, and neither reaches the command line`() {
        val db = ExternalDatabase.of(
            "jdbc:postgresql://db.example:5433/staging?user=bench&sslmode=require",
            null,
            "lab",
            mapOf(ExternalDatabase.PASSWORD_VARIABLE to "s3cret"),
        )
        assertThat(db.user).isEqualTo("bench")
        assertThat(db.password).isEqualTo("s3cret")
        assertThat(db.dataServerArguments()).containsExactly(
            "--protobench.data.db.url=jdbc:postgresql://db.example:5433/staging?user=bench&sslmode=require",
            "--protobench.data.db.user=bench",
            "--protobench.data.db.schema=lab",
        )
        assertThat(ExternalDatabase.of("jdbc:postgresql://db/x", "u", "lab", emptyMap()).password)
            .describedAs("trust or peer login").isEmpty()
    }

    @Test
    fun `every pair writes there but a variant that names H2`() {
        assertThat(RunDatabases.writesExternally(null)).describedAs("a scenario without variants").isTrue()
        assertThat(RunDatabases.writesExternally(Variant(name = "pool50"))).isTrue()
        assertThat(RunDatabases.writesExternally(Variant(name = "pg", database = "postgresql"))).isTrue()
        assertThat(RunDatabases.writesExternally(Variant(name = "h2", database = "h2"))).isFalse()
    }

    @Test
    fun `a fresh database passes with its version, and check creates nothing`() {
        assertThat(database("fresh_lab").check()).matches("\\d+(\\.\\d+)?.*")
        assertThat(count("SELECT count(*) FROM pg_namespace WHERE nspname = 'fresh_lab'")).isZero()
    }

    @Test
    fun `a wrong password or a closed port is refused with the driver's reason`() {
        assertThatThrownBy { database("lab", password = "wrong").check() }.isInstanceOf(ExternalDatabaseRefused::class.java)
            .hasMessageContaining("cannot log in to ${running().jdbcUrl} as ${running().user}: ")
            .hasMessageContaining("password authentication failed")
        val closed = ExternalDatabase.of("jdbc:postgresql://127.0.0.1:1/lab", "u", "lab", emptyMap())
        assertThatThrownBy { closed.check() }.isInstanceOf(ExternalDatabaseRefused::class.java)
            .hasMessageContaining("cannot log in to jdbc:postgresql://127.0.0.1:1/lab as u: Connection to 127.0.0.1:1 refused")
    }

    @Test
    fun `a schema holding somebody else's members table is refused and left as it was`() {
        sql("CREATE SCHEMA shop", "CREATE TABLE shop.members (id int)", "INSERT INTO shop.members VALUES (7)")
        assertThatThrownBy { database("shop").check() }.isInstanceOf(ExternalDatabaseRefused::class.java)
            .hasMessageContaining("schema shop holds tables the lab did not make (members)")
            .hasMessageContaining("give --db-schema a new or empty one")
        assertThat(database("shop").emptyMembers()).isNull()
        assertThat(count("SELECT count(*) FROM shop.members"))
            .describedAs("only a schema the check passed is emptied at the end").isEqualTo(1)
    }

    @Test
    fun `the lab's own schema passes again, and the run's end empties its members table`() {
        // As the data-server's Flyway leaves it: the members table beside a history holding V1__members.sql.
        sql(
            "CREATE SCHEMA lab_again",
            "CREATE TABLE lab_again.flyway_schema_history (script varchar(1000))",
            "INSERT INTO lab_again.flyway_schema_history VALUES ('V1__members.sql')",
            "CREATE TABLE lab_again.members (id int)",
            "INSERT INTO lab_again.members VALUES (1), (2)",
        )
        val db = database("lab_again")
        db.check()
        assertThat(db.emptyMembers()).isNull()
        assertThat(count("SELECT count(*) FROM lab_again.members")).isZero()
    }

    @Test
    fun `a user who may not create the schema is told how to give it one`() {
        sql("DROP ROLE IF EXISTS visitor", "CREATE ROLE visitor LOGIN PASSWORD 'visitor'")
        assertThatThrownBy { database("visitor_lab", user = "visitor", password = "visitor").check() }
            .isInstanceOf(ExternalDatabaseRefused::class.java)
            .hasMessageContaining("schema visitor_lab does not exist and visitor may not create schemas in this database")
            .hasMessageContaining("CREATE SCHEMA visitor_lab AUTHORIZATION visitor")
        sql("CREATE SCHEMA visitor_lab AUTHORIZATION visitor")
        database("visitor_lab", user = "visitor", password = "visitor").check()
    }
}
