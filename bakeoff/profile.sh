#!/usr/bin/env bash
# Where the lab's driver spends its CPU: one open-model run at a fixed rate against the
# gateway's null hop, sampled with perf (user and kernel), JIT-compiled frames named from
# the driver JVM's perf map. Prints the driver's CPU per request from /proc (user, kernel),
# its context switches and the top symbols; keeps perf.data and the report in OUT_DIR.
#
#   bakeoff/profile.sh OUT_DIR [RATE] [SECONDS] [DRIVER JVM OPTIONS...]
#
# Needs: the project built (./protobench builds it), perf, and permission to sample
# (kernel.perf_event_paranoid ≤ 1, or root). Servers on ports 18080/18081.
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
OUT="${1:?usage: bakeoff/profile.sh OUT_DIR [RATE] [SECONDS] [DRIVER JVM OPTIONS...]}"
RATE="${2:-1500}"; SECONDS_TIMED="${3:-30}"; shift $(( $# < 3 ? $# : 3 ))
JVM_OPTIONS=("${@:--Xms256m -Xmx256m -XX:+UseSerialGC}")
read -r -a JVM_OPTIONS <<< "${JVM_OPTIONS[*]}"
WARM="${WARM:-40}"
GATEWAY=http://127.0.0.1:18080
mkdir -p "$OUT"
DRIVER_JAR="$(ls "$ROOT"/load-driver/target/load-driver-*-exec.jar)"
BENCH_JAR="$(ls "$ROOT"/bench/target/bench-*-exec.jar)"

setsid java -jar "$BENCH_JAR" serve data-server --port 18081 --grpc-port 19091 >"$OUT/data-server.log" 2>&1 &
setsid java -jar "$BENCH_JAR" serve api-server --port 18080 --data-server 127.0.0.1:18081:19091 >"$OUT/api-server.log" 2>&1 &
stop_servers() { pkill -f "bench-.*-exec.jar serve" || true; sleep 3; pkill -f "api-server-.*-exec.jar|data-server-.*-exec.jar" || true; }
trap stop_servers EXIT
for _ in $(seq 1 120); do curl -sf "$GATEWAY/api/health" >/dev/null && break; sleep 1; done

conns=$(( RATE / 100 + 4 ))
cat >"$OUT/plan.json" <<PLAN
{"baseUrl":"$GATEWAY","targets":[{"path":"/api/data/none?size=1kb","field":"payloadSize","value":1024}],
 "load":{"model":"open","rate":$RATE,"connections":$conns,"maxConnections":$((conns * 4))},
 "durationMs":$(( (WARM + SECONDS_TIMED + 5) * 1000 )),"warmUpMs":0}
PLAN
# -XX:+UnlockDiagnosticVMOptions -XX:+DumpPerfMapAtExit names the JIT's code for perf.
java "${JVM_OPTIONS[@]}" -XX:+UnlockDiagnosticVMOptions -XX:+DumpPerfMapAtExit -jar "$DRIVER_JAR" run "$OUT/plan.json" >"$OUT/summary.json" 2>"$OUT/driver.log" &
pid=$!
sleep "$WARM"

stat() { awk '{print $14, $15}' "/proc/$pid/stat"; }
switches() { cat /proc/$pid/task/*/status | awk '/ctxt_switches/{s+=$2} END{print s}'; }
read -r u0 k0 <<<"$(stat)"; s0=$(switches)
curl -sf -XPOST "$GATEWAY/benchmark/start?protocol=none&testName=profile&replace=true" >/dev/null
perf record -F 999 -g -p "$pid" -o "$OUT/perf.data" -- sleep "$SECONDS_TIMED" 2>"$OUT/perf-record.log"
curl -sf -XPOST "$GATEWAY/benchmark/end" >"$OUT/window.json"
read -r u1 k1 <<<"$(stat)"; s1=$(switches)
wait "$pid" || true

answers=$(python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))["successRequests"])' "$OUT/window.json")
ticks_us=$(( 1000000 / $(getconf CLK_TCK) ))
echo "rate $RATE/s, $answers answers in ${SECONDS_TIMED} s; driver options ${JVM_OPTIONS[*]}" | tee "$OUT/profile.txt"
awk -v u=$((u1 - u0)) -v k=$((k1 - k0)) -v s=$((s1 - s0)) -v n="$answers" -v t="$ticks_us" \
  'BEGIN{printf "driver CPU/request: %.1f µs user, %.1f µs kernel; context switches/request %.2f (live threads)\n", u*t/n, k*t/n, s/n}' | tee -a "$OUT/profile.txt"
perf report -i "$OUT/perf.data" --no-children --sort dso,sym --percent-limit 0.7 --stdio 2>/dev/null \
  | grep -v '^$' | grep -v '^#' | grep '%' | head -60 | tee -a "$OUT/profile.txt"
