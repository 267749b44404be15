// The one k6 script behind every Proto-Bench run. Everything that varies (endpoints,
// load model, expected answers) comes from environment variables set by the bench
// runner (io.protobench.bench.runner.K6Invocation), so phases, protocols and controls
// are data, never copies of this file.
//
//   BASE_URL        gateway base URL, e.g. http://127.0.0.1:8080
//   TARGETS         JSON list of {path, field, value}: the gateway path, the answer field
//                   that must equal value (payloadSize | serializedSize; value null = any > 0).
//                   One target for a trial; several for a fork's soak, where each virtual
//                   user cycles through them.
//   LOAD_MODEL      closed (constant VUs) | open (constant arrival rate)
//   VUS             closed: virtual users
//   RATE, MAX_VUS   open: requests per second, and the VU pool that may serve them
//   DURATION        k6 duration, e.g. 30000ms
//   SUMMARY_PATH    where the end-of-test summary JSON is written
import http from 'k6/http';
import { check } from 'k6';

const env = __ENV;
const targets = JSON.parse(env.TARGETS);

function scenario() {
  if (env.LOAD_MODEL === 'open') {
    return {
      executor: 'constant-arrival-rate',
      rate: Number(env.RATE),
      timeUnit: '1s',
      duration: env.DURATION,
      preAllocatedVUs: Number(env.MAX_VUS),
      maxVUs: Number(env.MAX_VUS),
    };
  }
  return { executor: 'constant-vus', vus: Number(env.VUS), duration: env.DURATION };
}

export const options = {
  scenarios: { cell: scenario() },
  summaryTrendStats: ['avg', 'min', 'med', 'max', 'p(90)', 'p(95)', 'p(99)', 'p(99.9)', 'count'],
};

// Module state is per virtual user: each starts at a different target and moves on.
let next = __VU;

function correct(r, target) {
  if (r.status !== 200) return false;
  const value = r.json(target.field);
  return target.value === null ? value > 0 : value === target.value;
}

export default function () {
  const target = targets[next++ % targets.length];
  const res = http.get(env.BASE_URL + target.path, { timeout: '30s' });
  // One check, so k6's check passes are exactly the correct answers.
  check(res, { 'correct answer (status 200, expected size)': (r) => correct(r, target) });
}

export function handleSummary(data) {
  return { [env.SUMMARY_PATH]: JSON.stringify(data) };
}
