#!/usr/bin/env bash
# The load drivers side by side: the same gateway, the same fixed rates, one driver at a
# time (what it measured: docs/journal/2026-11-29-load-driver-bake-off.md). The servers
# first take SERVER_WARM s of each point's load, unmeasured. For each point, each driver
# (the first one rotating) runs a warm-up of WARM s and then TIMED s: the driver's CPU from
# /proc over the timed window, the servers' CPU, the answers and the hop's latency from the
# gateway's own measurement window.
#
#   bakeoff/run.sh OUT_DIR [DRIVERS...]     drivers: lab-netty lab-reactor hyperfoil
#
# Needs: the project built (./protobench builds it), bakeoff/hyperfoil built
# (mvn -B -f bakeoff/hyperfoil/pom.xml package) for hyperfoil. Servers on ports 18080/18081.
# k6 was the baseline of the published bake-off (commit 5d907cd, its script protobench.js);
# it left the project (AGPL), so its column can only be re-measured from that commit.
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
OUT="${1:?usage: bakeoff/run.sh OUT_DIR [DRIVERS...]}"; shift
DRIVERS=("${@:-lab-netty lab-reactor hyperfoil}")
read -r -a DRIVERS <<< "${DRIVERS[*]}"
WARM="${WARM:-20}"; TIMED="${TIMED:-20}"
POINTS="${POINTS:-none:1kb:375 none:1kb:1500 none:1mb:140 grpc:1kb:375 grpc:1kb:1500 grpc:1mb:140}"
GATEWAY=http://127.0.0.1:18080
mkdir -p "$OUT"
DRIVER_JAR="$(ls "$ROOT"/load-driver/target/load-driver-*-exec.jar)"
BENCH_JAR="$(ls "$ROOT"/bench/target/bench-*-exec.jar)"

servers() {
  setsid java -jar "$BENCH_JAR" serve data-server --port 18081 --grpc-port 19091 >"$OUT/data-server.log" 2>&1 &
  setsid java -jar "$BENCH_JAR" serve api-server --port 18080 --data-server 127.0.0.1:18081:19091 >"$OUT/api-server.log" 2>&1 &
  for _ in $(seq 1 120); do curl -sf "$GATEWAY/api/health" >/dev/null && return 0; sleep 1; done
  echo "the gateway did not come up; see $OUT" >&2; exit 1
}
stop_servers() { pkill -f "bench-.*-exec.jar serve" || true; sleep 3; pkill -f "api-server-.*-exec.jar|data-server-.*-exec.jar" || true; }
trap stop_servers EXIT

ticks() { awk '{print $14+$15}' "/proc/$1/stat" 2>/dev/null || echo 0; }
busy() { awk '/^cpu /{print $2+$3+$4+$7+$8+$9, $2+$3+$4+$5+$6+$7+$8+$9}' /proc/stat; }

# start_driver NAME HOP SIZE RATE: starts the driver in the background; its pid in DRIVER_PID
start_driver() {
  local name=$1 hop=$2 size=$3 rate=$4 bytes path
  bytes=$([[ $size == 1mb ]] && echo 1048576 || echo 1024)
  path="/api/data/$hop?size=$size"
  local conns=$(( rate / 100 + 4 ))
  case $name in
    lab-netty|lab-reactor)
      local client=$([[ $name == lab-netty ]] && echo netty || echo reactor-netty)
      cat >"$OUT/plan.json" <<PLAN
{"baseUrl":"$GATEWAY","targets":[{"path":"$path","field":"payloadSize","value":$bytes}],"client":"$client",
 "load":{"model":"open","rate":$rate,"connections":$conns,"maxConnections":$((conns * 4))},"durationMs":$((TIMED * 1000 + 5000)),"warmUpMs":$((WARM * 1000))}
PLAN
      java -Xms256m -Xmx256m -XX:+UseSerialGC -jar "$DRIVER_JAR" run "$OUT/plan.json" >"$OUT/last.json" 2>>"$OUT/driver.log" & ;;
    hyperfoil)
      java -jar "$ROOT/bakeoff/hyperfoil/target/bakeoff-hyperfoil.jar" --url "$GATEWAY$path" --rate "$rate" \
        --warmup "$WARM" --duration $((TIMED + 5)) --max-sessions $((conns * 4)) --connections "$conns" >"$OUT/last.json" 2>>"$OUT/driver.log" & ;;
    *) echo "unknown driver $name" >&2; exit 2 ;;
  esac
  DRIVER_PID=$!
}

# The servers' JIT settles before anything is measured: a minute of each point's load, unmeasured.
warm_servers() {
  local hop size rate
  for point in $POINTS; do
    IFS=: read -r hop size rate <<<"$point"
    WARM_SAVED=$WARM; WARM=0; TIMED_SAVED=$TIMED; TIMED=$((SERVER_WARM - 5))
    start_driver lab-netty "$hop" "$size" "$rate"; wait "$DRIVER_PID" || true
    WARM=$WARM_SAVED; TIMED=$TIMED_SAVED
  done
}
SERVER_WARM="${SERVER_WARM:-60}"

servers
warm_servers
echo "driver,hop,size,rate,answers_per_s,driver_cpu_us,servers_cpu_us,hop_p50_ms,hop_p99_ms,failed,machine_busy" >"$OUT/bakeoff.csv"
turn=0
for point in $POINTS; do
  IFS=: read -r hop size rate <<<"$point"
  # Each point starts with the next driver in turn: none is always first after a change of load.
  order=("${DRIVERS[@]:turn}" "${DRIVERS[@]:0:turn}"); turn=$(( (turn + 1) % ${#DRIVERS[@]} ))
  for name in "${order[@]}"; do
    start_driver "$name" "$hop" "$size" "$rate"; pid=$DRIVER_PID
    sleep $((WARM + 2))
    # The gateway's measurement window counts the requests it served and its own CPU (as in a trial).
    curl -sf -XPOST "$GATEWAY/benchmark/start?protocol=$hop&testName=bakeoff&replace=true" >/dev/null
    d0=$(ticks "$pid"); read -r b0 t0 <<<"$(busy)"
    sleep "$TIMED"
    d1=$(ticks "$pid"); read -r b1 t1 <<<"$(busy)"
    curl -sf -XPOST "$GATEWAY/benchmark/end" >"$OUT/window.json"
    wait "$pid" || true
    python3 - "$name" "$hop" "$size" "$rate" "$d0" "$d1" "$b0" "$b1" "$t0" "$t1" "$OUT/window.json" >>"$OUT/bakeoff.csv" <<'PY'
import json, sys
name, hop, size, rate, d0, d1, b0, b1, t0, t1, window = sys.argv[1:]
w = json.load(open(window))
answers = w["successRequests"]
seconds = w["durationMs"] / 1000
driver_us = (int(d1) - int(d0)) * 1e4 / answers if answers else float("nan")  # /proc ticks of 10 ms
api = w["processes"]["apiServer"]["cpuUsPerRequest"] or float("nan")
data = (w["processes"].get("dataServer") or {}).get("cpuUsPerRequest") or 0.0
print(f"{name},{hop},{size},{rate},{answers / seconds:.1f},{driver_us:.1f},{api + data:.1f},{w['latency']['p50Ms']:.3f},{w['latency']['p99Ms']:.3f},{w['failedRequests']},{(int(b1)-int(b0))/(int(t1)-int(t0)):.3f}")
PY
    cp "$OUT/last.json" "$OUT/$name-$hop-$size-$rate.json" 2>/dev/null || true
    tail -1 "$OUT/bakeoff.csv"
  done
done
