package io.protobench.contract.complex

// The objects of each complexity level as a Kotlin service holds them and as the
// HTTP/JSON hop carries them. Each class mirrors the protobuf message of the same
// name in protobench.proto field for field; ProtoMapping converts between the two.

/** Any of the five level roots. */
sealed interface LevelRecord

data class SimpleRecord(val id: Long, val name: String, val age: Int, val score: Double, val active: Boolean) : LevelRecord

data class Address(val street: String, val city: String, val state: String, val zipCode: String, val country: String)

data class MediumRecord(
    val id: Long,
    val name: String,
    val age: Int,
    val score: Double,
    val active: Boolean,
    val email: String,
    val phone: String,
    val createdAt: Long,
    val updatedAt: Long,
    val status: String,
    val tags: List<String>,
    val address: Address,
    val metadata: Map<String, String>,
) : LevelRecord

data class Item(val sku: String, val name: String, val quantity: Int, val unitPrice: Double, val category: String, val tags: List<String>)

data class Order(
    val orderId: String,
    val createdAt: Long,
    val status: String,
    val totalAmount: Double,
    val currency: String,
    val items: List<Item>,
)

data class ComplexRecord(
    val id: Long,
    val name: String,
    val age: Int,
    val score: Double,
    val active: Boolean,
    val email: String,
    val phone: String,
    val createdAt: Long,
    val updatedAt: Long,
    val status: String,
    val tags: List<String>,
    val address: Address,
    val metadata: Map<String, String>,
    val billingAddress: Address,
    val orders: List<Order>,
    val scores: Map<String, Double>,
    val permissions: List<String>,
    val addresses: List<Address>,
    val lastLoginAt: Long,
    val loyaltyTier: String,
) : LevelRecord

data class Person(
    val id: String,
    val firstName: String,
    val lastName: String,
    val email: String,
    val phone: String,
    val title: String,
    val department: String,
    val active: Boolean,
)

data class Audit(val createdAt: Long, val createdBy: String, val updatedAt: Long, val updatedBy: String)

data class Metric(val name: String, val value: Double, val unit: String, val timestampMs: Long, val min: Double, val max: Double)

data class MetricSet(val window: String, val aggregation: String, val metrics: List<Metric>)

data class Section(
    val id: String,
    val title: String,
    val status: String,
    val weight: Double,
    val owner: Person,
    val reviewer: Person,
    val location: Address,
    val audit: Audit,
    val metricSet: MetricSet,
)

data class UltraRecord(
    val id: Long,
    val name: String,
    val description: String,
    val status: String,
    val region: String,
    val priority: Int,
    val score: Double,
    val active: Boolean,
    val version: Int,
    val createdAt: Long,
    val updatedAt: Long,
    val tags: List<String>,
    val summary: Section,
    val risk: Section,
    val compliance: Section,
    val finance: Section,
) : LevelRecord

data class Chapter(
    val id: String,
    val title: String,
    val status: String,
    val sequence: Int,
    val progress: Double,
    val published: Boolean,
    val lead: Person,
    val audit: Audit,
    val summary: Section,
    val risk: Section,
    val compliance: Section,
    val finance: Section,
)

data class ExtremeRecord(
    val id: Long,
    val name: String,
    val description: String,
    val status: String,
    val region: String,
    val priority: Int,
    val score: Double,
    val active: Boolean,
    val version: Int,
    val createdAt: Long,
    val updatedAt: Long,
    val tags: List<String>,
    val planning: Chapter,
    val execution: Chapter,
    val review: Chapter,
) : LevelRecord
