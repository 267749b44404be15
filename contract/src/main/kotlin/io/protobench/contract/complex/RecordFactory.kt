package io.protobench.contract.complex

import java.util.SplittableRandom

/**
 * Builds the one object of each complexity level. Deterministic: the same level
 * always yields an equal object, so a receiver can check what it decoded against
 * [recordFor] without shared state. Values are varied (random digits, not repeated
 * strings) so no encoding gets an unrealistically easy ride.
 */
object RecordFactory {
    /** Orders x items x item tags in the complex level: the seeds' "10x5x3". */
    const val COMPLEX_ORDERS = 10
    const val COMPLEX_ITEMS_PER_ORDER = 5
    const val COMPLEX_TAGS_PER_ITEM = 3

    /** Metrics per section: sets the message-object count of ultra (~200) and extreme (~800). */
    const val ULTRA_METRICS_PER_SECTION = 42
    const val EXTREME_METRICS_PER_SECTION = 60

    fun recordFor(level: ComplexityLevel): LevelRecord {
        val values = Values(SplittableRandom(level.ordinal * 1_000_003L + 17))
        return when (level) {
            ComplexityLevel.SIMPLE -> values.simple()
            ComplexityLevel.MEDIUM -> values.medium()
            ComplexityLevel.COMPLEX -> values.complex()
            ComplexityLevel.ULTRA -> values.ultra()
            ComplexityLevel.EXTREME -> values.extreme()
        }
    }

    private class Values(private val random: SplittableRandom) {
        private val baseTime = 1_767_225_600_000L // 2026-01-01T00:00:00Z, in epoch milliseconds

        fun word(prefix: String) = "$prefix-${random.nextInt(100_000, 999_999)}"
        fun time() = baseTime + random.nextLong(0, 31_536_000_000L)
        fun amount() = random.nextInt(0, 10_000_000) / 100.0
        fun pick(vararg options: String) = options[random.nextInt(options.size)]
        fun words(prefix: String, count: Int) = List(count) { word(prefix) }

        fun simple() = SimpleRecord(
            id = random.nextLong(1, Long.MAX_VALUE),
            name = word("user"),
            age = random.nextInt(18, 90),
            score = amount(),
            active = random.nextBoolean(),
        )

        fun address() = Address(
            street = "${random.nextInt(1, 9999)} ${word("street")}",
            city = word("city"),
            state = word("state"),
            zipCode = random.nextInt(10000, 99999).toString(),
            country = pick("KR", "US", "DE", "JP", "BR"),
        )

        fun metadata(count: Int) = (1..count).associate { "key$it" to word("value") }

        fun medium(): MediumRecord {
            val s = simple()
            return MediumRecord(
                id = s.id, name = s.name, age = s.age, score = s.score, active = s.active,
                email = "${word("mail")}@example.com",
                phone = "+82-10-${random.nextInt(1000, 9999)}-${random.nextInt(1000, 9999)}",
                createdAt = time(),
                updatedAt = time(),
                status = pick("ACTIVE", "SUSPENDED", "PENDING"),
                tags = words("tag", 10),
                address = address(),
                metadata = metadata(5),
            )
        }

        fun item() = Item(
            sku = word("sku"),
            name = word("item"),
            quantity = random.nextInt(1, 20),
            unitPrice = amount(),
            category = pick("books", "food", "tools", "toys", "music"),
            tags = words("itag", COMPLEX_TAGS_PER_ITEM),
        )

        fun order() = Order(
            orderId = word("order"),
            createdAt = time(),
            status = pick("NEW", "PAID", "SHIPPED", "DELIVERED"),
            totalAmount = amount(),
            currency = pick("KRW", "USD", "EUR"),
            items = List(COMPLEX_ITEMS_PER_ORDER) { item() },
        )

        fun complex(): ComplexRecord {
            val m = medium()
            return ComplexRecord(
                id = m.id, name = m.name, age = m.age, score = m.score, active = m.active,
                email = m.email, phone = m.phone, createdAt = m.createdAt, updatedAt = m.updatedAt,
                status = m.status, tags = m.tags, address = m.address, metadata = m.metadata,
                billingAddress = address(),
                orders = List(COMPLEX_ORDERS) { order() },
                scores = (1..5).associate { "score$it" to amount() },
                permissions = words("perm", 5),
                addresses = List(3) { address() },
                lastLoginAt = time(),
                loyaltyTier = pick("BRONZE", "SILVER", "GOLD", "PLATINUM"),
            )
        }

        fun person() = Person(
            id = word("p"),
            firstName = word("first"),
            lastName = word("last"),
            email = "${word("mail")}@example.com",
            phone = "+82-2-${random.nextInt(1000, 9999)}-${random.nextInt(1000, 9999)}",
            title = pick("Engineer", "Manager", "Analyst", "Director"),
            department = word("dept"),
            active = random.nextBoolean(),
        )

        fun audit() = Audit(createdAt = time(), createdBy = word("u"), updatedAt = time(), updatedBy = word("u"))

        fun metric() = Metric(
            name = word("metric"),
            value = amount(),
            unit = pick("ms", "rps", "bytes", "percent"),
            timestampMs = time(),
            min = amount(),
            max = amount(),
        )

        fun section(metrics: Int) = Section(
            id = word("sec"),
            title = word("title"),
            status = pick("DRAFT", "REVIEW", "FINAL"),
            weight = amount(),
            owner = person(),
            reviewer = person(),
            location = address(),
            audit = audit(),
            metricSet = MetricSet(
                window = pick("1m", "5m", "1h"),
                aggregation = pick("avg", "max", "p99"),
                metrics = List(metrics) { metric() },
            ),
        )

        fun ultra() = UltraRecord(
            id = random.nextLong(1, Long.MAX_VALUE), name = word("doc"), description = word("desc"),
            status = pick("OPEN", "CLOSED"), region = pick("ap-northeast-2", "us-east-1"),
            priority = random.nextInt(1, 5), score = amount(), active = random.nextBoolean(),
            version = random.nextInt(1, 100), createdAt = time(), updatedAt = time(), tags = words("tag", 5),
            summary = section(ULTRA_METRICS_PER_SECTION),
            risk = section(ULTRA_METRICS_PER_SECTION),
            compliance = section(ULTRA_METRICS_PER_SECTION),
            finance = section(ULTRA_METRICS_PER_SECTION),
        )

        fun chapter() = Chapter(
            id = word("ch"), title = word("title"), status = pick("DRAFT", "FINAL"),
            sequence = random.nextInt(1, 100), progress = amount(), published = random.nextBoolean(),
            lead = person(), audit = audit(),
            summary = section(EXTREME_METRICS_PER_SECTION),
            risk = section(EXTREME_METRICS_PER_SECTION),
            compliance = section(EXTREME_METRICS_PER_SECTION),
            finance = section(EXTREME_METRICS_PER_SECTION),
        )

        fun extreme() = ExtremeRecord(
            id = random.nextLong(1, Long.MAX_VALUE), name = word("doc"), description = word("desc"),
            status = pick("OPEN", "CLOSED"), region = pick("ap-northeast-2", "us-east-1"),
            priority = random.nextInt(1, 5), score = amount(), active = random.nextBoolean(),
            version = random.nextInt(1, 100), createdAt = time(), updatedAt = time(), tags = words("tag", 5),
            planning = chapter(), execution = chapter(), review = chapter(),
        )
    }
}
