// The one k6 script behind every Proto-Bench run. Everything that varies (endpoints,
// load model, expected answers) comes from environment variables set by the bench
// runner (io.protobench.bench.lab.K6Invocation), so phases, protocols and controls
// are data, never copies of this file.
//
//   BASE_URL        gateway base URL, e.g. http://127.0.0.1:8080 (topology direct: the
//                   data-server's HTTP side)
//   TARGETS         JSON list of {path, field, value}: the gateway path, the answer field
//                   that must equal value (payloadSize | serializedSize; value null = any > 0).
//                   One target for a trial; several for a fork's soak, where each virtual
//                   user cycles through them. Topology direct adds `call` (http-json,
//                   http-binary, grpc-unary, grpc-stream) and, for gRPC, `size`: k6 calls
//                   the data-server itself and checks the answer it sends (see direct()).
//                   A member creation adds `body` (a file to send) and `emails` (the byte
//                   offsets of its email placeholders), with EMAIL_TAG and EMAIL_LAYOUT.
//   GRPC_ADDR       topology direct: the data-server's gRPC host:port
//   LOAD_MODEL      closed (constant VUs) | open (constant arrival rate)
//   VUS             closed: virtual users
//   RATE, MAX_VUS   open: requests per second, and the VU pool that may serve them
//   START_VUS       open: the users k6 starts with (more, up to MAX_VUS, only when none is idle)
//   DURATION        k6 duration, e.g. 30000ms
//   COLD_CALLS      topology direct: each virtual user's first calls, tagged connection:new
//   WARM_UP_MS      open model, topology direct: before the timed scenario (cell), each of the
//                   START_VUS users makes its COLD_CALLS calls in a scenario of its own (warmup),
//                   paced like the cell's arrivals and given this long; the cell starts after
//                   it, on the same users
//   SUMMARY_PATH    where the end-of-test summary JSON is written
import http from 'k6/http';
import grpc from 'k6/net/grpc';
import { check, sleep } from 'k6';
import exec from 'k6/execution';
import { Trend } from 'k6/metrics';

const env = __ENV;
const targets = JSON.parse(env.TARGETS);
const CORRECT = 'correct answer (status 200, expected size)';

// gRPC clients exist only in the init context; each virtual user connects on its first call.
// The methods come from the server's reflection service, so no .proto file travels with k6.
const grpcClient = env.GRPC_ADDR ? new grpc.Client() : null;
let grpcConnected = false;

// Topology direct, server streaming: time from opening a stream to its first message. k6
// has no clock finer than Date.now(), so this is in whole milliseconds: it says something
// across a shaped link (region, wan), next to nothing on loopback.
const streamFirstMessage = new Trend('stream_first_message', true);

function scenario() {
  if (env.LOAD_MODEL === 'open') {
    return {
      executor: 'constant-arrival-rate',
      rate: Number(env.RATE),
      timeUnit: '1s',
      duration: env.DURATION,
      preAllocatedVUs: Number(env.START_VUS || env.MAX_VUS),
      maxVUs: Number(env.MAX_VUS),
    };
  }
  return { executor: 'constant-vus', vus: Number(env.VUS), duration: env.DURATION };
}

// Topology direct: every trial is a k6 process of its own, so each virtual user opens new
// connections, and a new HTTP/2 connection starts with 64 KiB flow-control windows that
// its client grows one round trip at a time. Across a link that made a user's first gRPC
// calls of 1 MB two to five times slower than its later ones, while the relay (which splits
// TCP) spared HTTP/1.1 its slow start. Services keep their connections open, so each user's
// first COLD_CALLS calls are tagged connection:new and the hop's latency is read from the
// connection:warm submetrics, for every protocol alike; the runner flags a trial with few
// warm calls (TrialFigures.connectionFlags). Cold calls still count as answers (throughput,
// CPU per request): they cost the servers as much (docs/methodology.md).
const COLD_CALLS = Number(env.COLD_CALLS || 0);
const directTopology = targets.some((t) => t.call);
let directCalls = 0;

// A cost trial's users open their connections before it is timed. Started cold inside the
// timed scenario, the first call of each gRPC user (a connection, then reflection: several
// round trips) kept it busy while arrivals came; k6 dropped them and made new users, whose
// own first calls were as slow: both gRPC arms dropped 1-3% of their 1 KB calls across
// region. k6 keeps each user's connections (and this module's state) from one scenario to
// the next, so the cell's users are the warm-up's, each past its COLD_CALLS.
const WARM_UP_MS = Number(env.WARM_UP_MS || 0);

// The warm-up's calls come as the trial's arrivals would, a quarter faster so that the last
// has a fifth of the warm-up to finish: user v's call k in slot k * START_VUS + v. Made all
// at once, 20 users' first calls of 1 MB across wan shared its 100 Mbit/s and each took
// 1.5-2.7 s: the link's queue, not what a new connection costs (the report's numbered calls).
const WARM_UP_PACE = 0.8;

function paceWarmUp() {
  const users = Number(env.START_VUS);
  const spacingMs = Math.min(1000 / Number(env.RATE), WARM_UP_PACE * WARM_UP_MS / (users * COLD_CALLS));
  const slot = exec.vu.iterationInScenario * users + ((__VU - 1) % users);
  const waitMs = exec.scenario.startTime + slot * spacingMs - Date.now();
  if (waitMs > 0) sleep(waitMs / 1000);
}

function scenarios() {
  if (WARM_UP_MS <= 0) return { cell: scenario() };
  return {
    // No grace: a call still running at the end is cut, and its user's next ones stay tagged new.
    warmup: { executor: 'per-vu-iterations', vus: Number(env.START_VUS), iterations: COLD_CALLS, maxDuration: `${WARM_UP_MS}ms`, gracefulStop: '0s' },
    cell: Object.assign(scenario(), { startTime: `${WARM_UP_MS}ms` }),
  };
}

// Every call trend by user_call place, e.g. grpc_req_duration{user_call:next}.
function userCallTrends() {
  const places = userCallPlaces();
  return ['http_req_duration', 'grpc_req_duration'].flatMap((trend) => places.map((place) => `${trend}{user_call:${place}}`));
}

// k6 puts a submetric in its summary only when a threshold names it; these always hold.
function summarySubmetrics() {
  const always = (names, rule) => Object.fromEntries(names.map((name) => [name, [rule]]));
  return Object.assign(
    directTopology ? always(['http_req_duration{connection:warm}', 'grpc_req_duration{connection:warm}', 'stream_first_message{connection:warm}'], 'max>=0') : {},
    directTopology && COLD_CALLS > 0 ? always(userCallTrends(), 'max>=0') : {},
    WARM_UP_MS > 0 ? always(['checks{scenario:cell}'], 'rate>=0') : {},
    WARM_UP_MS > 0 ? always(['iterations{scenario:warmup}', 'iterations{scenario:cell}'], 'count>=0') : {},
  );
}

export const options = {
  scenarios: scenarios(),
  summaryTrendStats: ['avg', 'min', 'med', 'max', 'p(90)', 'p(95)', 'p(99)', 'p(99.9)', 'count'],
  thresholds: summarySubmetrics(),
};

// The tags of this virtual user's next direct call: new while its connection warms, and
// its place among the user's calls: each cold call by its number, then the COLD_CALLS after
// them ('next'), then the rest ('later'). Where next is slower than later, COLD_CALLS were
// too few for this link (TrialFigures.warmingFlags); the numbered ones show what a new
// connection costs (the report's "New connections").
function connectionTags() {
  const n = ++directCalls;
  const place = n <= COLD_CALLS ? String(n) : n <= 2 * COLD_CALLS ? 'next' : 'later';
  return { connection: n <= COLD_CALLS ? 'new' : 'warm', user_call: place };
}

// The values connectionTags gives user_call.
function userCallPlaces() {
  const places = [];
  for (let n = 1; n <= COLD_CALLS; n++) places.push(String(n));
  return places.concat(['next', 'later']);
}

// Module state is per virtual user: each starts at a different target and moves on.
let next = __VU;

function correct(r, target) {
  if (r.status !== 200) return false;
  const value = r.json(target.field);
  return target.value === null ? value > 0 : value === target.value;
}

export default function () {
  if (WARM_UP_MS > 0 && exec.scenario.name === 'warmup') paceWarmUp();
  const target = targets[next++ % targets.length];
  if (target.call) return direct(target);
  const res = target.body ? createMembers(target) : http.get(env.BASE_URL + target.path, { timeout: '30s' });
  // One check, so k6's check passes are exactly the correct answers.
  check(res, { [CORRECT]: (r) => correct(r, target) });
}

// Member bodies, read once at start (k6 shares a file's bytes between virtual users); each
// virtual user then keeps its own copy with its run tag and number written into every email.
// gRPC messages are built from the JSON body's text instead (k6 encodes them itself).
const bodyFiles = {};
const bodyTexts = {};
for (const t of targets) {
  if (!t.body) continue;
  if (t.call && t.call.startsWith('grpc')) bodyTexts[t.body] = open(t.body);
  else if (!(t.body in bodyFiles)) bodyFiles[t.body] = open(t.body, 'b');
}
const emailLayout = env.EMAIL_LAYOUT ? JSON.parse(env.EMAIL_LAYOUT) : null;
const ownBodies = {};
const ownMessages = {};

// The last `width` digits of a number, zeros in front.
function digitsOf(number, width) {
  const text = String(number);
  let digits = '';
  for (let i = 0; i < width; i++) {
    const k = text.length - width + i;
    digits += k >= 0 ? text[k] : '0';
  }
  return digits;
}

function writeDigits(bytes, at, number, width) {
  const digits = digitsOf(number, width);
  for (let i = 0; i < width; i++) bytes[at + i] = digits.charCodeAt(i);
}

function ownBody(target) {
  let bytes = ownBodies[target.body];
  if (!bytes) {
    bytes = new Uint8Array(bodyFiles[target.body].slice(0));
    for (const at of target.emails) {
      for (let i = 0; i < env.EMAIL_TAG.length; i++) bytes[at + emailLayout.tagAt + i] = env.EMAIL_TAG.charCodeAt(i);
      writeDigits(bytes, at + emailLayout.vuAt, __VU, emailLayout.vuDigits);
    }
    ownBodies[target.body] = bytes;
  }
  return bytes;
}

// This virtual user's body with this iteration's number in every email.
function filledBody(target) {
  const bytes = ownBody(target);
  for (const at of target.emails) writeDigits(bytes, at + emailLayout.iterationAt, __ITER, emailLayout.iterationDigits);
  return bytes;
}

// POST /api/members/<protocol>: seed 003's member (or a batch), every email new. The body
// is sent as bytes: turning a string of a large image into UTF-8 on every post cost k6
// milliseconds per request.
function createMembers(target) {
  return http.post(env.BASE_URL + target.path, filledBody(target).buffer, { timeout: '30s', headers: { 'Content-Type': 'application/json' } });
}

// The member as a gRPC message (proto3 JSON names, the image as base64), its email this
// virtual user's and iteration's, laid out as in the HTTP bodies.
function memberMessage(target) {
  let member = ownMessages[target.body];
  if (!member) {
    member = JSON.parse(bodyTexts[target.body]);
    ownMessages[target.body] = member;
  }
  const p = member.email; // the placeholder, as written in the file
  const L = emailLayout;
  const email = p.slice(0, L.tagAt) + env.EMAIL_TAG + p.slice(L.tagAt + env.EMAIL_TAG.length, L.vuAt) +
    digitsOf(__VU, L.vuDigits) + p.slice(L.vuAt + L.vuDigits, L.iterationAt) +
    digitsOf(__ITER, L.iterationDigits) + p.slice(L.iterationAt + L.iterationDigits);
  return { email, password: member.password, name: member.name, profileImage: member.profileImage, etcInfo: member.etcInfo };
}

// Bytes a base64 text decodes to.
function decodedLength(text) {
  if (typeof text !== 'string') return -1;
  const padding = text.endsWith('==') ? 2 : text.endsWith('=') ? 1 : 0;
  return (text.length / 4) * 3 - padding;
}

function connected() {
  if (!grpcConnected) {
    grpcClient.connect(env.GRPC_ADDR, { plaintext: true, reflect: true, maxReceiveSize: 16 * 1024 * 1024 });
    grpcConnected = true;
  }
  return grpcClient;
}

// Topology direct: k6 calls the data-server over the target's protocol and checks the
// answer itself: the payload's bytes as decoded, not a size the server merely claims.
function direct(target) {
  if (target.body) return createDirect(target);
  const pass = (ok) => check(null, { [CORRECT]: () => ok });
  const tags = connectionTags();
  switch (target.call) {
    case 'http-json': {
      const r = http.get(env.BASE_URL + target.path, { timeout: '30s', tags });
      const body = r.status === 200 ? r.json() : null;
      return pass(body !== null && body.size === target.value && decodedLength(body.payload) === target.value);
    }
    case 'http-binary': {
      const r = http.get(env.BASE_URL + target.path,
        { timeout: '30s', responseType: 'binary', headers: { Accept: 'application/x-protobuf' }, tags });
      return pass(r.status === 200 && r.body !== null && r.body.byteLength === target.value);
    }
    case 'grpc-unary': {
      const r = connected().invoke(target.path, { size: target.size }, { timeout: '30s', tags });
      return pass(r.status === grpc.StatusOK && r.message.size === target.value &&
        decodedLength(r.message.payload) === target.value);
    }
    case 'grpc-stream': {
      // Server streaming: the check runs once the stream has ended (or failed). The clock
      // starts after the connection exists, so a virtual user's first stream does not count it.
      const client = connected();
      const opened = Date.now();
      const stream = new grpc.Stream(client, target.path, { timeout: '30s', tags });
      let received = 0;
      let messages = 0;
      let checked = false;
      const finish = (ok) => { if (!checked) { checked = true; pass(ok); } };
      stream.on('data', (chunk) => {
        if (messages++ === 0) streamFirstMessage.add(Date.now() - opened, tags);
        received += decodedLength(chunk.data);
      });
      stream.on('error', () => finish(false));
      stream.on('end', () => finish(received === target.value));
      stream.write({ size: target.size });
      stream.end();
      return undefined;
    }
    default:
      throw new Error('unknown call ' + target.call);
  }
}

// Topology direct, member creation: one member to the data-server's own endpoints, the
// answer checked for the new id (or, for the client stream, a count of one).
function createDirect(target) {
  const pass = (ok) => check(null, { [CORRECT]: () => ok });
  const tags = connectionTags();
  switch (target.call) {
    case 'http-json':
    case 'http-binary': {
      const type = target.call === 'http-json' ? 'application/json' : 'application/x-protobuf';
      const r = http.post(env.BASE_URL + target.path, filledBody(target).buffer,
        { timeout: '30s', headers: { 'Content-Type': type, Accept: 'application/json' }, tags });
      return pass(r.status === 201 && r.json(target.field) > 0);
    }
    case 'grpc-unary': {
      const r = connected().invoke(target.path, memberMessage(target), { timeout: '30s', tags });
      return pass(r.status === grpc.StatusOK && Number(r.message[target.field]) > 0);
    }
    case 'grpc-stream': {
      // Client streaming: the member, the end of the stream, then the server's one answer.
      const stream = new grpc.Stream(connected(), target.path, { timeout: '30s', tags });
      let checked = false;
      const finish = (ok) => { if (!checked) { checked = true; pass(ok); } };
      stream.on('data', (answer) => finish(Number(answer[target.field]) === target.value));
      stream.on('error', () => finish(false));
      stream.on('end', () => finish(false));
      stream.write(memberMessage(target));
      stream.end();
      return undefined;
    }
    default:
      throw new Error('unknown call ' + target.call);
  }
}

// The runner times the cell alone: its answers from checks{scenario:cell}, its seconds from
// the test's less the warm-up's.
export function handleSummary(data) {
  return { [env.SUMMARY_PATH]: JSON.stringify(Object.assign(data, { warmUpMs: WARM_UP_MS })) };
}
