package io.protobench.bakeoff.hyperfoil;

import java.lang.management.ManagementFactory;
import java.lang.reflect.Field;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.LongAdder;

import org.HdrHistogram.Histogram;

import io.hyperfoil.api.collection.ElasticPool;
import io.hyperfoil.api.config.Benchmark;
import io.hyperfoil.api.config.BenchmarkBuilder;
import io.hyperfoil.api.config.Phase;
import io.hyperfoil.api.config.PhaseBuilder;
import io.hyperfoil.api.session.PhaseInstance;
import io.hyperfoil.api.session.Session;
import io.hyperfoil.api.statistics.Counters;
import io.hyperfoil.api.statistics.StatisticsSnapshot;
import io.hyperfoil.core.impl.LocalSimulationRunner;
import io.hyperfoil.core.impl.statistics.StatisticsCollector;
import io.hyperfoil.core.util.CountDown;
import io.hyperfoil.http.api.HttpMethod;
import io.hyperfoil.http.config.HttpPluginBuilder;
import io.hyperfoil.http.config.Protocol;
import io.hyperfoil.http.handlers.StatusToStatsHandler;
import io.hyperfoil.http.steps.HttpStepCatalog;
import io.vertx.core.AsyncResult;
import io.vertx.core.Handler;

/**
 * Hyperfoil's in-process runner (the one its own tests use) plus the few hooks the bake-off needs:
 * CPU readings when "measure" starts and terminates, and a count of arrivals the open model had to throttle.
 *
 * <p>Latency and coordinated omission (checked in the 0.25.2 sources): constantRate is an open model whose
 * scheduler starts one session per arrival at the arrival's time; the request's clock starts when the session
 * runs the request step ({@code Request.start()} in {@code PrepareHttpRequestStep}), i.e. at the intended time,
 * BEFORE waiting for a free connection from the shared pool, so queueing behind busy connections is inside the
 * latency (this is Hyperfoil's answer to coordinated omission). Not compensated: the scheduler ticks in whole
 * milliseconds and a session's first step runs as a task on its event loop, so lateness of the harness itself
 * (a saturated event loop, GC) is not in the latency; and an arrival that finds all
 * --max-sessions sessions busy is "throttled" and started later, when a session frees up, and its latency is
 * measured from that late start ({@code OpenModelPhase.notifyFinished}: "TODO: it would be nice to compensate
 * response times"). Hyperfoil's explicit {@code compensation()} metric exists only for 'always' phases, so it is
 * not used. Hence the harness reports "blocked" (throttled arrivals) next to the percentiles: when it is 0 the
 * histogram is measured from the intended start for every request.
 */
final class HyperfoilRun extends LocalSimulationRunner {
   static final String WARMUP = "warmup", MEASURE = "measure";

   private final MeasureStats stats;
   private CountingPool measurePool;
   private final Args args;
   private PhaseInstance measure;
   private volatile long cpuStartNs, cpuEndNs;

   private HyperfoilRun(Args args, MeasureStats stats) {
      super(benchmark(args), stats, null, null);
      this.args = args;
      this.stats = stats;
   }

   static Map<String, Object> execute(Args args) {
      HyperfoilRun run = new HyperfoilRun(args, new MeasureStats());
      run.run();
      return run.result();
   }

   private static Benchmark benchmark(Args a) {
      BenchmarkBuilder b = BenchmarkBuilder.builder().name("bakeoff-hyperfoil").threads(a.threads());
      b.addPlugin(HttpPluginBuilder::new)
            .ergonomics()
               .repeatCookies(false).userAgentFromSession(false) // plain GETs, like the other drivers
               .autoRangeCheck(false).stopOnInvalid(false)       // we judge the status ourselves
            .endErgonomics()
            .http()
               .protocol(Protocol.HTTP).host(a.host()).port(a.port())
               .allowHttp2(false)                                // HTTP/1.1 keep-alive, no pipelining
               .sharedConnections(a.connections())
               .requestTimeout(a.timeoutS() * 1000L)
            .endHttp()
            .endPlugin();
      if (a.warmupS() > 0) {
         phase(b, WARMUP, a, a.warmupS()).isWarmup(true);
      }
      PhaseBuilder.ConstantRate measure = phase(b, MEASURE, a, a.durationS());
      if (a.warmupS() > 0) {
         measure.startAfter(WARMUP);
      }
      return b.build();
   }

   private static PhaseBuilder.ConstantRate phase(BenchmarkBuilder b, String name, Args a, int seconds) {
      PhaseBuilder.ConstantRate phase = b.addPhase(name).constantRate(a.rate())
            .variance(false)               // evenly spaced arrivals (wrk2/k6 style), not Poisson
            .maxSessions(a.maxSessions())  // = max requests in flight; more arrivals get throttled
            .duration(seconds * 1000L)
            // arrivals stop at 'duration'; the phase then waits for what is in flight, at most a timeout more
            .maxDuration(seconds * 1000L + a.timeoutS() * 1000L + 1000L);
      phase.scenario().initialSequence("request")
            .step(HttpStepCatalog.SC).httpRequest(HttpMethod.GET).path(a.path())
               .handler().status(new StatusToStatsHandler()).endHandler() // exact status counts: "exact_status"
            .endStep()
            .endSequence();
      return phase;
   }

   @Override
   public void init() {
      super.init();
      // OpenModelPhase starts an arrival either at once, with a session taken from the pool, or, when the pool
      // is exhausted, counts it as "throttled" and starts it later on a session that has just finished.
      // Hyperfoil only keeps the number currently throttled, so count the immediate starts at the pool.
      measure = instances.get(MEASURE);
      @SuppressWarnings("unchecked")
      ElasticPool<Session> pool = (ElasticPool<Session>) field(measure, "sessionPool", null);
      field(measure, "sessionPool", measurePool = new CountingPool(pool));
   }

   @Override
   public void openConnections(Handler<AsyncResult<Void>> handler) {
      super.openConnections(result -> {
         if (result.failed()) { // LocalSimulationRunner would carry on without connections
            Main.die(2, "cannot open connections to " + args.host() + ":" + args.port() + ": " + result.cause());
         }
         handler.handle(result);
      });
   }

   @Override
   protected CompletableFuture<Void> phaseChanged(Phase phase, PhaseInstance.Status status, boolean sessionLimitExceeded, Throwable error) {
      if (MEASURE.equals(phase.name)) {
         if (status == PhaseInstance.Status.RUNNING) {
            cpuStartNs = processCpuNs();
         } else if (status == PhaseInstance.Status.TERMINATED) { // arrivals over and every response in
            cpuEndNs = processCpuNs();
         }
      }
      return super.phaseChanged(phase, status, sessionLimitExceeded, error);
   }

   private Map<String, Object> result() {
      StatisticsSnapshot s = stats.total;
      Map<String, Long> statuses = s.extensions.get("exact_status") instanceof Counters c ? c.serialize() : Map.of();
      long ok = statuses.getOrDefault("status_" + args.expectStatus(), 0L);
      long withStatus = statuses.values().stream().mapToLong(Long::longValue).sum();
      Histogram h = s.histogram; // nanoseconds
      long cpuNs = cpuEndNs - cpuStartNs;
      long scheduled = (Long) field(measure, "startedOrThrottledUsers", null); // arrivals due in the phase
      Map<String, Object> r = new LinkedHashMap<>();
      r.put("driver", "hyperfoil-0.25.2");
      r.put("url", args.url());
      r.put("rate", args.rate());
      r.put("durationS", args.durationS());
      r.put("scheduled", scheduled);
      r.put("requests", (long) s.requestCount);
      r.put("responses", (long) s.responseCount);
      // every request that did not end in the expected status: other status, reset, timeout, cancelled
      r.put("wrong", Math.max(0, s.requestCount - ok));
      r.put("statusMismatch", withStatus - ok);
      r.put("connectionErrors", (long) s.connectionErrors); // note: a timeout also closes the connection
      r.put("timeouts", (long) s.requestTimeouts);
      // arrivals that found all --max-sessions sessions busy ("throttled"): started late, or never
      r.put("blocked", scheduled - measurePool.started.sum());
      // of those, still waiting for a session when the phase ended: never sent
      r.put("dropped", ((AtomicLong) field(measure, "throttledUsers", null)).get());
      r.put("achievedRate", s.responseCount / (double) args.durationS());
      r.put("p50Ms", h.getValueAtPercentile(50) / 1e6);
      r.put("p99Ms", h.getValueAtPercentile(99) / 1e6);
      r.put("maxMs", h.getMaxValue() / 1e6);
      r.put("connWaitMs", s.blockedTime / 1e6); // total time requests waited for a free pooled connection
      r.put("cpuS", cpuNs / 1e9);
      r.put("cpuUsPerRequest", s.responseCount > 0 ? cpuNs / 1e3 / s.responseCount : 0.0);
      return r;
   }

   private static long processCpuNs() {
      return ((com.sun.management.OperatingSystemMXBean) ManagementFactory.getOperatingSystemMXBean()).getProcessCpuTime();
   }

   /** Reads a (non-public) field of a Hyperfoil object, or replaces it when {@code replacement} is not null. */
   private static Object field(Object target, String name, Object replacement) {
      for (Class<?> c = target.getClass(); c != null; c = c.getSuperclass()) {
         try {
            Field f = c.getDeclaredField(name);
            f.setAccessible(true);
            if (replacement != null) f.set(target, replacement);
            return f.get(target);
         } catch (NoSuchFieldException e) {
            // look in the superclass
         } catch (IllegalAccessException e) {
            throw new IllegalStateException(e);
         }
      }
      throw new IllegalStateException("no field " + name + " in " + target.getClass() + " (Hyperfoil version changed?)");
   }

   /** Hyperfoil's statistics of the "measure" phase, merged over threads, metrics and 1-second samples. */
   private static final class MeasureStats implements StatisticsCollector.StatisticsConsumer {
      final StatisticsSnapshot total = new StatisticsSnapshot();

      @Override
      public void accept(Phase phase, int stepId, String metric, StatisticsSnapshot snapshot, CountDown countDown) {
         if (MEASURE.equals(phase.name)) {
            total.add(snapshot);
         }
      }
   }

   /** The measure phase's session pool, counting the sessions handed out (= arrivals started on time). */
   private static final class CountingPool implements ElasticPool<Session> {
      final LongAdder started = new LongAdder();
      private final ElasticPool<Session> pool;

      CountingPool(ElasticPool<Session> pool) {
         this.pool = pool;
      }

      @Override
      public Session acquire() {
         Session s = pool.acquire();
         if (s != null) started.increment();
         return s;
      }

      @Override public void release(Session s) { pool.release(s); }
      @Override public void reserve(int capacity) { pool.reserve(capacity); }
      @Override public int minUsed() { return pool.minUsed(); }
      @Override public int maxUsed() { return pool.maxUsed(); }
      @Override public void resetStats() { pool.resetStats(); }
   }
}
