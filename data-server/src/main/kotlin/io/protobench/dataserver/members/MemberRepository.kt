package io.protobench.dataserver.members

import org.springframework.data.jpa.repository.JpaRepository
import org.springframework.data.jpa.repository.Modifying
import org.springframework.data.jpa.repository.Query

/** Spring Data JPA's repository of [MemberEntity]; its calls block (JDBC), so only [MemberStore] makes them, off the event loops. */
interface MemberRepository : JpaRepository<MemberEntity, Long> {
    /**
     * Empties the table in one statement, H2 and PostgreSQL alike. Unlike `DELETE`, it leaves
     * PostgreSQL no dead rows to vacuum, so every trial writes into the same empty table.
     */
    @Modifying
    @Query(value = "TRUNCATE TABLE members", nativeQuery = true)
    fun truncate()
}
