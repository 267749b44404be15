package io.protobench.contract.complex

import io.protobench.contract.proto.ComplexData
import io.protobench.contract.proto.Address as PAddress
import io.protobench.contract.proto.Audit as PAudit
import io.protobench.contract.proto.Chapter as PChapter
import io.protobench.contract.proto.ComplexRecord as PComplex
import io.protobench.contract.proto.ExtremeRecord as PExtreme
import io.protobench.contract.proto.Item as PItem
import io.protobench.contract.proto.MediumRecord as PMedium
import io.protobench.contract.proto.Metric as PMetric
import io.protobench.contract.proto.MetricSet as PMetricSet
import io.protobench.contract.proto.Order as POrder
import io.protobench.contract.proto.Person as PPerson
import io.protobench.contract.proto.Section as PSection
import io.protobench.contract.proto.SimpleRecord as PSimple
import io.protobench.contract.proto.UltraRecord as PUltra

/**
 * Converts level objects to protobuf messages and back. The data-server runs
 * [toProto] for every protobuf-encoded response (a service maps its own objects to
 * the wire format per request, as Jackson does for JSON); [fromProto] lets tests
 * compare what each protocol delivered.
 */
object ProtoMapping {

    fun toProto(record: LevelRecord): ComplexData = when (record) {
        is SimpleRecord -> ComplexData.newBuilder().setSimple(record.toProto()).build()
        is MediumRecord -> ComplexData.newBuilder().setMedium(record.toProto()).build()
        is ComplexRecord -> ComplexData.newBuilder().setComplex(record.toProto()).build()
        is UltraRecord -> ComplexData.newBuilder().setUltra(record.toProto()).build()
        is ExtremeRecord -> ComplexData.newBuilder().setExtreme(record.toProto()).build()
    }

    /** The level object inside [data]; throws if no level is set. */
    fun fromProto(data: ComplexData): LevelRecord = when (data.recordCase) {
        ComplexData.RecordCase.SIMPLE -> data.simple.toRecord()
        ComplexData.RecordCase.MEDIUM -> data.medium.toRecord()
        ComplexData.RecordCase.COMPLEX -> data.complex.toRecord()
        ComplexData.RecordCase.ULTRA -> data.ultra.toRecord()
        ComplexData.RecordCase.EXTREME -> data.extreme.toRecord()
        ComplexData.RecordCase.RECORD_NOT_SET, null -> throw IllegalArgumentException("ComplexData carries no record")
    }

    // ---- to protobuf ----

    private fun SimpleRecord.toProto(): PSimple = PSimple.newBuilder()
        .setId(id).setName(name).setAge(age).setScore(score).setActive(active).build()

    private fun Address.toProto(): PAddress = PAddress.newBuilder()
        .setStreet(street).setCity(city).setState(state).setZipCode(zipCode).setCountry(country).build()

    private fun MediumRecord.toProto(): PMedium = PMedium.newBuilder()
        .setId(id).setName(name).setAge(age).setScore(score).setActive(active)
        .setEmail(email).setPhone(phone).setCreatedAt(createdAt).setUpdatedAt(updatedAt).setStatus(status)
        .addAllTags(tags).setAddress(address.toProto()).putAllMetadata(metadata)
        .build()

    private fun Item.toProto(): PItem = PItem.newBuilder()
        .setSku(sku).setName(name).setQuantity(quantity).setUnitPrice(unitPrice).setCategory(category)
        .addAllTags(tags).build()

    private fun Order.toProto(): POrder = POrder.newBuilder()
        .setOrderId(orderId).setCreatedAt(createdAt).setStatus(status).setTotalAmount(totalAmount)
        .setCurrency(currency).addAllItems(items.map { it.toProto() }).build()

    private fun ComplexRecord.toProto(): PComplex = PComplex.newBuilder()
        .setId(id).setName(name).setAge(age).setScore(score).setActive(active)
        .setEmail(email).setPhone(phone).setCreatedAt(createdAt).setUpdatedAt(updatedAt).setStatus(status)
        .addAllTags(tags).setAddress(address.toProto()).putAllMetadata(metadata)
        .setBillingAddress(billingAddress.toProto())
        .addAllOrders(orders.map { it.toProto() })
        .putAllScores(scores)
        .addAllPermissions(permissions)
        .addAllAddresses(addresses.map { it.toProto() })
        .setLastLoginAt(lastLoginAt).setLoyaltyTier(loyaltyTier)
        .build()

    private fun Person.toProto(): PPerson = PPerson.newBuilder()
        .setId(id).setFirstName(firstName).setLastName(lastName).setEmail(email).setPhone(phone)
        .setTitle(title).setDepartment(department).setActive(active).build()

    private fun Audit.toProto(): PAudit = PAudit.newBuilder()
        .setCreatedAt(createdAt).setCreatedBy(createdBy).setUpdatedAt(updatedAt).setUpdatedBy(updatedBy).build()

    private fun Metric.toProto(): PMetric = PMetric.newBuilder()
        .setName(name).setValue(value).setUnit(unit).setTimestampMs(timestampMs).setMin(min).setMax(max).build()

    private fun MetricSet.toProto(): PMetricSet = PMetricSet.newBuilder()
        .setWindow(window).setAggregation(aggregation).addAllMetrics(metrics.map { it.toProto() }).build()

    private fun Section.toProto(): PSection = PSection.newBuilder()
        .setId(id).setTitle(title).setStatus(status).setWeight(weight)
        .setOwner(owner.toProto()).setReviewer(reviewer.toProto()).setLocation(location.toProto())
        .setAudit(audit.toProto()).setMetricSet(metricSet.toProto()).build()

    private fun UltraRecord.toProto(): PUltra = PUltra.newBuilder()
        .setId(id).setName(name).setDescription(description).setStatus(status).setRegion(region)
        .setPriority(priority).setScore(score).setActive(active).setVersion(version)
        .setCreatedAt(createdAt).setUpdatedAt(updatedAt).addAllTags(tags)
        .setSummary(summary.toProto()).setRisk(risk.toProto())
        .setCompliance(compliance.toProto()).setFinance(finance.toProto())
        .build()

    private fun Chapter.toProto(): PChapter = PChapter.newBuilder()
        .setId(id).setTitle(title).setStatus(status).setSequence(sequence).setProgress(progress)
        .setPublished(published).setLead(lead.toProto()).setAudit(audit.toProto())
        .setSummary(summary.toProto()).setRisk(risk.toProto())
        .setCompliance(compliance.toProto()).setFinance(finance.toProto())
        .build()

    private fun ExtremeRecord.toProto(): PExtreme = PExtreme.newBuilder()
        .setId(id).setName(name).setDescription(description).setStatus(status).setRegion(region)
        .setPriority(priority).setScore(score).setActive(active).setVersion(version)
        .setCreatedAt(createdAt).setUpdatedAt(updatedAt).addAllTags(tags)
        .setPlanning(planning.toProto()).setExecution(execution.toProto()).setReview(review.toProto())
        .build()

    // ---- from protobuf ----

    private fun PSimple.toRecord() = SimpleRecord(id, name, age, score, active)

    private fun PAddress.toRecord() = Address(street, city, state, zipCode, country)

    private fun PMedium.toRecord() = MediumRecord(
        id, name, age, score, active, email, phone, createdAt, updatedAt, status,
        tagsList.toList(), address.toRecord(), metadataMap.toMap(),
    )

    private fun PItem.toRecord() = Item(sku, name, quantity, unitPrice, category, tagsList.toList())

    private fun POrder.toRecord() = Order(orderId, createdAt, status, totalAmount, currency, itemsList.map { it.toRecord() })

    private fun PComplex.toRecord() = ComplexRecord(
        id, name, age, score, active, email, phone, createdAt, updatedAt, status,
        tagsList.toList(), address.toRecord(), metadataMap.toMap(),
        billingAddress.toRecord(), ordersList.map { it.toRecord() }, scoresMap.toMap(),
        permissionsList.toList(), addressesList.map { it.toRecord() }, lastLoginAt, loyaltyTier,
    )

    private fun PPerson.toRecord() = Person(id, firstName, lastName, email, phone, title, department, active)

    private fun PAudit.toRecord() = Audit(createdAt, createdBy, updatedAt, updatedBy)

    private fun PMetric.toRecord() = Metric(name, value, unit, timestampMs, min, max)

    private fun PMetricSet.toRecord() = MetricSet(window, aggregation, metricsList.map { it.toRecord() })

    private fun PSection.toRecord() = Section(
        id, title, status, weight, owner.toRecord(), reviewer.toRecord(), location.toRecord(),
        audit.toRecord(), metricSet.toRecord(),
    )

    private fun PUltra.toRecord() = UltraRecord(
        id, name, description, status, region, priority, score, active, version, createdAt, updatedAt,
        tagsList.toList(), summary.toRecord(), risk.toRecord(), compliance.toRecord(), finance.toRecord(),
    )

    private fun PChapter.toRecord() = Chapter(
        id, title, status, sequence, progress, published, lead.toRecord(), audit.toRecord(),
        summary.toRecord(), risk.toRecord(), compliance.toRecord(), finance.toRecord(),
    )

    private fun PExtreme.toRecord() = ExtremeRecord(
        id, name, description, status, region, priority, score, active, version, createdAt, updatedAt,
        tagsList.toList(), planning.toRecord(), execution.toRecord(), review.toRecord(),
    )
}
