// Replay sets: one recorded conversation per bench, driver release and server, as JSON under
// <results dir>/replay/ with what made it and a digest of its bytes, so a set is reused only where all
// of that is the same, and a damaged file is refused rather than replayed.
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, renameSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { EXIT, UserError } from '../common/errors.js';
import { programSpec } from '../drivers/index.js';

export const SET_FORMAT = 'mysql-driver-bench/replay-set';
export const SET_VERSION = 3; // 2: each step also says how many bytes the client sent; 3: the greeting's per-connection bytes made the same

const sha256 = (text) => createHash('sha256').update(text).digest('hex');

/** What a bench is, for a set: its name, SQL, and a hash of the code that plans, sets up and checks it. */
export function benchIdentity(bench) {
  const code = [bench.plan, bench.check, bench.setup, bench.floor?.check].map((f) => (f ? String(f) : '')).join('\n');
  return { name: bench.name, sql: bench.sql ?? null, hash: sha256(`${bench.name}\n${bench.sql}\n${code}`).slice(0, 16) };
}

/**
 * Its load spec without a repeat's #tag (an A/A row replays its driver's set), package, version, and an
 * adapter file's hash. A local checkout has none that survives an edit: null, captured afresh every run.
 */
export function driverIdentity(driver) {
  if (driver.local) return null;
  const spec = programSpec(driver);
  const identity = { spec, package: driver.packageName ?? driver.name, version: driver.version ?? 'unknown' };
  if (driver.source && existsSync(driver.source)) identity.file = sha256(readFileSync(driver.source)).slice(0, 16);
  return identity;
}

/** The server a set answers for: the embedded one by its binary's version, a remote one by its address. */
export function serverIdentity({ embeddedVersion, target }) {
  if (embeddedVersion) return { embedded: true, version: embeddedVersion };
  return { embedded: false, address: target?.socket ?? `${target?.host}:${target?.port}`, database: target?.database ?? null };
}

const slug = (s) => String(s).replace(/[^\w.@-]+/g, '_').slice(0, 60);

export function setPath(dir, identity) {
  const key = sha256(JSON.stringify([identity.bench, identity.driver, identity.server])).slice(0, 16);
  return join(dir, 'replay', slug(identity.bench.name), `${slug(identity.driver.spec)}-${key}.json`);
}

const digestOf = (conversation) => sha256(JSON.stringify(conversation));

const encode = (recording) => ({
  serverVersion: recording.serverVersion,
  ops: recording.ops,
  cycleFrom: recording.cycleFrom,
  cycleOps: recording.cycleOps,
  flights: recording.flights.map((b) => Buffer.from(b).toString('base64')),
  steps: recording.steps.map((s) => ({ cmd: s.cmd, stmt: s.stmt, sent: s.sent, reply: Buffer.from(s.reply).toString('base64') })),
});

// A driver that does not run the bench gets a set too, with its reason (`notApplicable`), so that a later
// run needs no server to learn it again.
export function saveSet(dir, { identity, recording, setupData, server, notApplicable }) {
  const file = setPath(dir, identity);
  mkdirSync(join(file, '..'), { recursive: true });
  const head = { format: SET_FORMAT, version: SET_VERSION, capturedAt: new Date().toISOString(), identity, server };
  let set;
  if (notApplicable) set = { ...head, notApplicable };
  else {
    const conversation = encode(recording);
    set = { ...head, setupData: setupData ?? null, digest: digestOf(conversation), conversation };
  }
  writeFileSync(`${file}.tmp`, JSON.stringify(set));
  renameSync(`${file}.tmp`, file);
  return file;
}

export class BadReplaySet extends UserError {
  constructor(file, why) {
    super(`replay set ${file} is unusable: ${why}`, { exitCode: EXIT.USAGE, hint: 'delete it, or run again with --recapture' });
    this.name = 'BadReplaySet';
  }
}

const isBase64 = (s) => typeof s === 'string' && /^[A-Za-z0-9+/]*={0,2}$/.test(s);

/** A set's parts checked: its format, its digest, each step's shape. Throws BadReplaySet. */
export function checkSet(set, file) {
  const bad = (why) => { throw new BadReplaySet(file, why); };
  if (!set || typeof set !== 'object' || set.format !== SET_FORMAT) bad('not a replay set');
  if (set.version !== SET_VERSION) bad(`format version ${set.version}, this harness reads ${SET_VERSION}`);
  if (!set.identity || !set.server) bad('it does not say what it was recorded from');
  if (set.notApplicable !== undefined) {
    const na = set.notApplicable;
    if (typeof (na?.unsupported ?? na?.unavailable) !== 'string') bad('its n/a reason is not text');
    return set;
  }
  const c = set.conversation;
  if (!c || !Array.isArray(c.flights) || !Array.isArray(c.steps) || c.steps.length === 0) bad('no conversation');
  if (!c.flights.every(isBase64)) bad('a handshake flight is not base64');
  c.steps.forEach((s, i) => {
    if (!Number.isInteger(s?.cmd) || !(s.stmt === null || Number.isInteger(s.stmt)) || !isBase64(s.reply)) bad(`step ${i} is malformed`);
  });
  if (!Number.isInteger(c.cycleFrom) || c.cycleFrom < 0 || c.cycleFrom >= c.steps.length) bad('its cycle start is out of range');
  if (digestOf(c) !== set.digest) bad('its bytes do not match their digest (the file was changed or damaged)');
  return set;
}

function parseSet(file) {
  try {
    return JSON.parse(readFileSync(file, 'utf8'));
  } catch (err) {
    throw new BadReplaySet(file, err.code ? err.message : `not JSON (${err.message}; truncated?)`);
  }
}

export const readSet = (file) => checkSet(parseSet(file), file);

/** The recorded conversation of a checked set, as the replay transport plays it. */
export function decodeConversation(set) {
  const c = set.conversation;
  return {
    serverVersion: c.serverVersion,
    ops: c.ops,
    cycleFrom: c.cycleFrom,
    cycleOps: c.cycleOps,
    flights: c.flights.map((b) => Buffer.from(b, 'base64')),
    steps: c.steps.map((s) => ({ cmd: s.cmd, stmt: s.stmt, sent: s.sent, reply: Buffer.from(s.reply, 'base64') })),
  };
}

/** The stored set for an identity when it is there (checked), else null; one of an older format is captured again. */
export function findSet(dir, identity) {
  const file = setPath(dir, identity);
  if (!existsSync(file) || !statSync(file).isFile()) return null;
  const set = parseSet(file);
  if (set?.version < SET_VERSION) return null;
  return { file, set: checkSet(set, file) };
}
