// The one k6 script behind every Proto-Bench cell. Everything that varies between
// cells (path, load model, expected answer) comes from environment variables set
// by the bench runner (io.protobench.bench.runner.K6Invocation), so phases and
// protocols are data, never copies of this file.
//
//   BASE_URL        gateway base URL, e.g. http://127.0.0.1:8080
//   TARGET_PATH     gateway path of the cell, e.g. /api/data/grpc?size=1kb
//   EXPECT_FIELD    payloadSize | serializedSize
//   EXPECT_VALUE    exact value the field must have; empty = any value > 0
//   LOAD_MODEL      closed (constant VUs) | open (constant arrival rate)
//   VUS             closed: virtual users
//   RATE, MAX_VUS   open: requests per second, and the VU pool that may serve them
//   DURATION        k6 duration, e.g. 30000ms
//   SUMMARY_PATH    where the end-of-test summary JSON is written
import http from 'k6/http';
import { check } from 'k6';

const env = __ENV;
const expectedValue = env.EXPECT_VALUE ? Number(env.EXPECT_VALUE) : null;

function scenario() {
  if (env.LOAD_MODEL === 'open') {
    return {
      executor: 'constant-arrival-rate',
      rate: Number(env.RATE),
      timeUnit: '1s',
      duration: env.DURATION,
      preAllocatedVUs: Math.min(Number(env.MAX_VUS), Math.max(1, Number(env.RATE))),
      maxVUs: Number(env.MAX_VUS),
    };
  }
  return { executor: 'constant-vus', vus: Number(env.VUS), duration: env.DURATION };
}

export const options = {
  scenarios: { cell: scenario() },
  summaryTrendStats: ['avg', 'min', 'med', 'max', 'p(90)', 'p(95)', 'p(99)', 'p(99.9)', 'count'],
};

const url = env.BASE_URL + env.TARGET_PATH;

export default function () {
  const res = http.get(url, { timeout: '30s' });
  check(res, {
    'status is 200': (r) => r.status === 200,
    'answer has the expected size': (r) => {
      if (r.status !== 200) return false;
      const value = r.json(env.EXPECT_FIELD);
      return expectedValue === null ? value > 0 : value === expectedValue;
    },
  });
}

export function handleSummary(data) {
  return { [env.SUMMARY_PATH]: JSON.stringify(data) };
}
