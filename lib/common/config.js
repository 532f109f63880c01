import { usageError } from './errors.js';

export const DEFAULT_SCHEMA = 'mysql_driver_bench';

const ENV_KEYS = {
  host: 'DB_HOST',
  port: 'DB_PORT',
  user: 'DB_USER',
  password: 'DB_PASSWORD',
  database: 'DB_DATABASE',
  socket: 'DB_SOCKET',
};

const blank = (v) => v === undefined || v === null || v === '';

/** Where to connect, pure: flags > environment > conf.js; no host and no socket anywhere: the embedded server. */
export function resolveConnection({ flags = {}, env = {}, file = {} } = {}) {
  const pick = (key) => {
    if (!blank(flags[key])) return { value: flags[key], from: 'flag' };
    if (!blank(env[ENV_KEYS[key]])) return { value: env[ENV_KEYS[key]], from: 'env' };
    if (!blank(file[key])) return { value: file[key], from: 'conf.js' };
    return { value: undefined, from: 'default' };
  };
  const host = pick('host');
  const socket = pick('socket');
  const database = pick('database').value ?? DEFAULT_SCHEMA;
  assertSchemaName(database);
  if (blank(host.value) && blank(socket.value)) {
    return { embedded: true, database };
  }
  const port = pick('port').value ?? 3306;
  return {
    embedded: false,
    host: socket.value ? undefined : String(host.value),
    port: socket.value ? undefined : parsePort(port),
    socket: socket.value ? String(socket.value) : undefined,
    user: pick('user').value ?? 'root',
    password: pick('password').value ?? '',
    database,
  };
}

function parsePort(value) {
  const n = Number(value);
  if (!Number.isInteger(n) || n < 1 || n > 65535) {
    throw usageError(`port '${value}' is not a TCP port`, 'give a whole number from 1 to 65535');
  }
  return n;
}

export function assertSchemaName(name) {
  if (!/^[A-Za-z0-9_]{1,64}$/.test(name)) {
    throw usageError(`database name '${name}' is not allowed`,
      'use letters, digits and underscores only (at most 64)');
  }
  return name;
}

/** commander argument parsers that reject bad numbers with a clear message. */
export function positiveInteger(flag) {
  return (value) => {
    const n = Number(value);
    if (!/^\s*\d+\s*$/.test(String(value)) || !Number.isSafeInteger(n) || n < 1) {
      throw usageError(`${flag} must be a whole number of at least 1, not '${value}'`);
    }
    return n;
  };
}

export function positiveNumber(flag) {
  return (value) => {
    const n = Number(value);
    if (String(value).trim() === '' || !Number.isFinite(n) || n <= 0) {
      throw usageError(`${flag} must be a number greater than 0, not '${value}'`);
    }
    return n;
  };
}

export function splitList(value) {
  return String(value).split(',').map((s) => s.trim()).filter(Boolean);
}
