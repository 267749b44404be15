package io.protobench.dataserver.members

import io.protobench.contract.members.NewMember
import jakarta.persistence.Entity
import jakarta.persistence.GeneratedValue
import jakarta.persistence.GenerationType
import jakarta.persistence.Id
import jakarta.persistence.Table

/** A row of `members` (schema: db/migration); columns by Spring's naming, `profileImage` → `profile_image`. */
@Entity
@Table(name = "members")
class MemberEntity(val email: String, val password: String, val name: String, val profileImage: ByteArray, val etcInfo: String) {
    /** Assigned by the database's identity column when the row is inserted. */
    @Id
    @GeneratedValue(strategy = GenerationType.IDENTITY)
    var id: Long? = null

    companion object {
        fun of(member: NewMember) = MemberEntity(member.email, member.password, member.name, member.profileImage, member.etcInfo)
    }
}
