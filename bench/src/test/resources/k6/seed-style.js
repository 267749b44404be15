// A script in the style of the seed project's published k6 scripts: it knows only the
// gateway API (no Proto-Bench runner), opens and closes the measurement window itself
// and checks what the seeds' scripts check. It must run unchanged against our gateway.
import http from 'k6/http';
import { check } from 'k6';

const BASE_URL = __ENV.BASE_URL || 'http://localhost:8080';

export const options = { vus: 2, duration: '3s' };

export function setup() {
  const health = http.get(`${BASE_URL}/api/health`);
  check(health, { 'health is 200': (r) => r.status === 200 });
  const start = http.post(`${BASE_URL}/benchmark/start?protocol=gRPC&testName=seed-style`);
  check(start, { 'start is 200': (r) => r.status === 200 });
}

export default function () {
  for (const protocol of ['http/json', 'http/binary', 'grpc', 'grpc/stream']) {
    const data = http.get(`${BASE_URL}/api/data/${protocol}?size=10kb`);
    check(data, {
      'data status is 200': (r) => r.status === 200,
      'payloadSize > 0': (r) => r.json('payloadSize') > 0,
    });
    const complex = http.get(`${BASE_URL}/api/complex/${protocol}?complexity=complex`);
    check(complex, {
      'complex status is 200': (r) => r.status === 200,
      'serializedSize > 0': (r) => r.json('serializedSize') > 0,
    });
  }
}

export function teardown() {
  const end = http.post(`${BASE_URL}/benchmark/end`);
  check(end, {
    'end is 200': (r) => r.status === 200,
    'end has the seed fields': (r) => {
      const b = r.json();
      return b.totalRequests > 0 && b.successRequests === b.totalRequests && b.throughputRps > 0 &&
        b.latency.p95Ms >= b.latency.p50Ms && b.serverMetrics.peakHeapMb > 0 && b.dataTransfer.totalBytes > 0;
    },
  });
}

export function handleSummary(data) {
  return { [__ENV.SUMMARY_PATH]: JSON.stringify(data) };
}
