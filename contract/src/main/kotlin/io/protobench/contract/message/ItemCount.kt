package io.protobench.contract.message

import io.protobench.contract.InvalidParameter
import io.protobench.contract.ParameterText

/** The `count` of a batch of a user's message: how many copies of the sample one answer carries. */
object ItemCount {
    /** The most items one answer carries, whatever their size (the data-server also bounds a batch's bytes). */
    const val MAX = 100_000

    const val ACCEPTED = "a whole number of items from 1 to 100000"

    /** [text] as a count; [InvalidParameter] when it is missing, not a whole number, or out of 1..[MAX]. */
    fun parse(text: String?): Int {
        val bounded = ParameterText.bounded("count", text, ACCEPTED) ?: throw InvalidParameter("count", null, ACCEPTED)
        val count = bounded.trim().toIntOrNull() ?: throw InvalidParameter("count", text, ACCEPTED)
        return checked(count)
    }

    /** [count] when it lies in 1..[MAX]; else [InvalidParameter]. */
    fun checked(count: Int): Int {
        if (count !in 1..MAX) throw InvalidParameter("count", count.toString(), ACCEPTED)
        return count
    }
}
