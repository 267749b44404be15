package protobench.usermessage

import com.google.protobuf.Message
import com.google.protobuf.Parser
import io.protobench.contract.complex.SimpleRecord
import java.util.function.Function
import io.protobench.contract.proto.SimpleRecord as ProtoSimple

/**
 * A stand-in for the class `protobench message` generates (bench's ModelSource), with the same
 * entry points, for the contract's own `protobench.SimpleRecord`: the servers' tests load it
 * from a jar the way they load a user's message. The generated code itself is tested in bench
 * (MessageBuildTest).
 */
object Model {
    @JvmField
    val TYPE = "protobench.SimpleRecord"

    @JvmStatic
    fun root(): Class<*> = SimpleRecord::class.java

    @JvmStatic
    fun parser(): Parser<out Message> = ProtoSimple.parser()

    @JvmField
    val TO_PROTO = Function<Any, Message> { item ->
        val r = item as SimpleRecord
        ProtoSimple.newBuilder().setId(r.id).setName(r.name).setAge(r.age).setScore(r.score).setActive(r.active).build()
    }

    @JvmField
    val FROM_PROTO = Function<Message, Any> { message ->
        val p = message as ProtoSimple
        SimpleRecord(p.id, p.name, p.age, p.score, p.active)
    }
}
