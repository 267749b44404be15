package io.protobench.dataserver.message

import org.springframework.boot.autoconfigure.condition.ConditionalOnExpression

/** A user's message is served: `protobench.data.message.jar` names its jar (empty or unset: none). */
@Target(AnnotationTarget.CLASS, AnnotationTarget.FUNCTION)
@Retention(AnnotationRetention.RUNTIME)
@ConditionalOnExpression("!'\${protobench.data.message.jar:}'.isEmpty()")
annotation class MessageEnabled
