package io.protobench.bench.database

import java.sql.Connection
import java.sql.DriverManager
import java.sql.SQLException
import java.util.Properties

/**
 * A PostgreSQL database the run writes to but did not start (`run --db-url`): a staging
 * server, a managed instance, a database on another host. The lab keeps to one schema of it
 * ([schema], created by the data-server's Flyway when missing), because the runner empties
 * the members table before every trial: a schema holding tables the lab did not make is
 * refused before anything runs ([check]). Its processes are not this run's, so their CPU is
 * not counted.
 */
class ExternalDatabase(
    val jdbcUrl: String,
    val user: String,
    /** From the environment ([PASSWORD_VARIABLE]), never from the command line or run.json. */
    val password: String,
    val schema: String,
) {
    /** For the data-server: the URL, user and schema (the password goes by environment). */
    fun dataServerArguments(): List<String> =
        listOf("--protobench.data.db.url=$jdbcUrl", "--protobench.data.db.user=$user", "--protobench.data.db.schema=$schema")

    /**
     * Logs in (within [LOGIN_TIMEOUT_SECONDS]) and checks that the run may use [schema]: it is
     * missing and the user may create it, or it is the lab's (Flyway's history of the members
     * migration is in it) and the user may write there. Returns the server's version;
     * [ExternalDatabaseRefused] with the reason otherwise.
     */
    fun check(): String = connect().use { connection ->
        val version = connection.queryString("SHOW server_version")
        val tables = connection.tablesIn(schema)
        when {
            tables == null -> if (!connection.queryBoolean("SELECT has_database_privilege(current_database(), 'CREATE')")) {
                refuse(
                    "schema $schema does not exist and $user may not create schemas in this database; create it for $user " +
                        "(CREATE SCHEMA $schema AUTHORIZATION $user) or give --db-schema one that $user owns",
                )
            }

            tables.isNotEmpty() && (FLYWAY_HISTORY !in tables || !connection.holdsLabMigration(schema)) -> refuse(
                "schema $schema holds tables the lab did not make (${tables.sorted().joinToString()}); the run empties its members " +
                    "table before every trial, so it keeps to a schema of its own: give --db-schema a new or empty one",
            )

            !connection.queryBoolean("SELECT has_schema_privilege(?, 'USAGE') AND has_schema_privilege(?, 'CREATE')", schema, schema) ->
                refuse("$user may not use or create tables in schema $schema")
        }
        version
    }

    /**
     * Empties the lab's members table at the end of a run, so no member of it stays in a
     * database that outlives the run; the schema and the empty table stay. Only a table the
     * lab made (Flyway's history of its migration beside it) is touched. Returns why it
     * could not, or null.
     */
    fun emptyMembers(): String? = try {
        connect().use { connection ->
            val tables = connection.tablesIn(schema).orEmpty()
            if ("members" in tables && FLYWAY_HISTORY in tables && connection.holdsLabMigration(schema)) {
                connection.createStatement().use { it.execute("TRUNCATE TABLE \"$schema\".members") }
            }
        }
        null
    } catch (e: SQLException) {
        "could not empty $schema.members in $jdbcUrl: ${e.message}"
    } catch (e: ExternalDatabaseRefused) {
        e.message
    }

    private fun connect(): Connection = try {
        DriverManager.getConnection(
            jdbcUrl,
            Properties().apply {
                setProperty("user", user)
                setProperty("password", password)
                setProperty("connectTimeout", LOGIN_TIMEOUT_SECONDS.toString())
                setProperty("loginTimeout", LOGIN_TIMEOUT_SECONDS.toString())
                setProperty("socketTimeout", QUERY_TIMEOUT_SECONDS.toString())
                setProperty("ApplicationName", "protobench")
            },
        )
    } catch (e: SQLException) {
        refuse("cannot log in to $jdbcUrl as $user: ${e.message?.lineSequence()?.first()}")
    }

    /** The tables of [schema] in lower case; null when there is no such schema. */
    private fun Connection.tablesIn(schema: String): Set<String>? {
        if (!queryBoolean("SELECT EXISTS (SELECT 1 FROM pg_namespace WHERE nspname = ?)", schema)) return null
        return prepareStatement("SELECT lower(table_name) FROM information_schema.tables WHERE table_schema = ?").use { statement ->
            statement.setString(1, schema)
            statement.executeQuery().use { rows -> buildSet { while (rows.next()) add(rows.getString(1)) } }
        }
    }

    /** Whether [schema]'s Flyway history holds the data-server's members migration. */
    private fun Connection.holdsLabMigration(schema: String): Boolean =
        prepareStatement("SELECT count(*) FROM \"$schema\".$FLYWAY_HISTORY WHERE script = ?").use { statement ->
            statement.setString(1, LAB_MIGRATION)
            statement.executeQuery().use { it.next() && it.getLong(1) > 0 }
        }

    private fun Connection.queryString(sql: String): String = createStatement().use { statement ->
        statement.executeQuery(sql).use {
            it.next()
            it.getString(1)
        }
    }

    private fun Connection.queryBoolean(sql: String, vararg parameters: String): Boolean = prepareStatement(sql).use { statement ->
        parameters.forEachIndexed { i, p -> statement.setString(i + 1, p) }
        statement.executeQuery().use { it.next() && it.getBoolean(1) }
    }

    private fun refuse(reason: String): Nothing = throw ExternalDatabaseRefused(reason)

    companion object {
        /** Spring Boot binds it to the data-server's `protobench.data.db.password`; the CLI reads it for its own checks. */
        const val PASSWORD_VARIABLE = "PROTOBENCH_DB_PASSWORD"
        const val DEFAULT_SCHEMA = "protobench"
        const val LOGIN_TIMEOUT_SECONDS = 10
        private const val QUERY_TIMEOUT_SECONDS = 60
        private const val FLYWAY_HISTORY = "flyway_schema_history"

        /** The data-server's one migration (data-server/src/main/resources/db/migration). */
        private const val LAB_MIGRATION = "V1__members.sql"

        /** What `--db-url` accepts: PostgreSQL, the one database besides H2 the data-server has a driver for. */
        val URL = Regex("""jdbc:postgresql://[^/?#\s]+/[^?#\s/]+(\?\S*)?""")

        /** The data-server's rule for a schema name (`protobench.data.db.schema`). */
        val SCHEMA = Regex("[a-z_][a-z0-9_]{0,62}")

        /**
         * The database of `--db-url`, `--db-user` and `--db-schema`, the password from [environment];
         * [ExternalDatabaseRefused] naming what is wrong and what is accepted.
         */
        fun of(url: String, user: String?, schema: String, environment: Map<String, String> = System.getenv()): ExternalDatabase {
            if (!url.matches(URL)) {
                throw ExternalDatabaseRefused(
                    "--db-url '$url' is not a PostgreSQL JDBC URL: give jdbc:postgresql://HOST[:PORT]/DATABASE " +
                        "(the data-server has drivers for H2 and PostgreSQL; H2 needs no --db-url)",
                )
            }
            if (Regex("(?i)[?&]password=").containsMatchIn(url)) {
                throw ExternalDatabaseRefused(
                    "--db-url carries a password, which would end up in run.json: " +
                        "give it in the environment variable $PASSWORD_VARIABLE instead",
                )
            }
            if (!schema.matches(SCHEMA)) {
                throw ExternalDatabaseRefused(
                    "--db-schema '$schema' is not a plain lower-case name: a letter or _, then letters, digits or _, at most 63",
                )
            }
            val login = user ?: Regex("(?i)[?&]user=([^&]+)").find(url)?.groupValues?.get(1)
                ?: throw ExternalDatabaseRefused("--db-url $url names no user: give --db-user")
            return ExternalDatabase(url, login, environment[PASSWORD_VARIABLE].orEmpty(), schema)
        }
    }
}

/** An external database the run cannot use, in words for the command line (exit 2). */
class ExternalDatabaseRefused(message: String) : RuntimeException(message)
