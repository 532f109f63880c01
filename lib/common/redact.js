// Keeps secrets out of everything the harness prints or writes.
const secrets = new Set();

/** Register a value (a password) that must never be printed or saved. */
export function addSecret(value) {
  if (typeof value === 'string' && value.length > 0) secrets.add(value);
}

export function redact(text) {
  let out = String(text);
  for (const s of secrets) out = out.split(s).join('***');
  return out;
}

/** An error as one line for a row or a message: the server's message, else the error's, redacted. */
export const errorText = (err) => redact(err?.sqlMessage || err?.message || String(err));

// user:password@ in a URL (a git remote in a driver spec, a server URL).
const URL_CREDENTIALS = /([a-z][a-z0-9+.-]*:\/\/[^\s/:@]*):[^\s/@]*@/gi;
const PASSWORD_FLAG = /^(--(?:db-)?password)(?:=(.*))?$/;

/** A command line as the results record it: --password's, DB_PASSWORD's and URLs' passwords registered and written '***'. */
export function redactArgv(argv, env = {}) {
  addSecret(env.DB_PASSWORD);
  const out = [];
  for (let i = 0; i < argv.length; i++) {
    const m = PASSWORD_FLAG.exec(argv[i]);
    if (m) {
      const value = m[2] ?? argv[++i];
      addSecret(value);
      out.push(...(m[2] === undefined ? [m[1], ...(value === undefined ? [] : ['***'])] : [`${m[1]}=***`]));
      continue;
    }
    out.push(argv[i]);
  }
  return out.map((a) => redact(a.replace(URL_CREDENTIALS, '$1:***@')));
}
