package io.protobench.dataserver.members

import org.springframework.data.jpa.repository.JpaRepository

/** Spring Data JPA's repository of [MemberEntity]; its calls block (JDBC), so only [MemberStore] makes them, off the event loops. */
interface MemberRepository : JpaRepository<MemberEntity, Long>
