package io.protobench.dataserver.web

import io.protobench.contract.members.MemberCounts
import io.protobench.dataserver.members.MemberStore
import io.protobench.dataserver.members.MembersDisabled
import io.protobench.dataserver.members.MembersEnabled
import org.springframework.http.HttpStatus
import org.springframework.http.MediaType
import org.springframework.http.ResponseEntity
import org.springframework.web.bind.annotation.DeleteMapping
import org.springframework.web.bind.annotation.GetMapping
import org.springframework.web.bind.annotation.PostMapping
import org.springframework.web.bind.annotation.RequestMapping
import org.springframework.web.bind.annotation.RequestMethod
import org.springframework.web.bind.annotation.RestController

/**
 * `/internal/members`: rows, members created since start and the database time since the
 * previous call (the runner calls it after each trial, when no creation is under way);
 * `DELETE` empties the table first (the runner does before each trial). 503 when the
 * database cannot be reached.
 */
@RestController
@MembersEnabled
class MemberCountsController(private val members: MemberStore) {
    @GetMapping("/internal/members", produces = [MediaType.APPLICATION_JSON_VALUE])
    suspend fun members(): MemberCounts = members.counts()

    @DeleteMapping("/internal/members", produces = [MediaType.APPLICATION_JSON_VALUE])
    suspend fun clear(): MemberCounts = members.clear()
}

/** The write path's addresses in a server that only reads: 404 naming the setting that turns them on. */
data class WritePathOff(val error: String)

@RestController
@MembersDisabled
class MembersOffController {
    @PostMapping("/api/members")
    fun create() = off()

    @RequestMapping("/internal/members", method = [RequestMethod.GET, RequestMethod.DELETE])
    fun counts() = off()

    private fun off() = ResponseEntity.status(HttpStatus.NOT_FOUND).contentType(MediaType.APPLICATION_JSON).body(WritePathOff(MESSAGE))

    companion object {
        const val MESSAGE =
            "this data-server only reads: the write path (members) is off; start it with protobench.data.members.enabled=true"
    }
}
