// Keeps secrets out of everything the harness prints or writes.
const secrets = new Set();

/** Register a value (a password) that must never be printed or saved. */
export function addSecret(value) {
  if (typeof value === 'string' && value.length > 0) secrets.add(value);
}

/** Replace every registered secret in a string with '***'. */
export function redact(text) {
  let out = String(text);
  for (const s of secrets) out = out.split(s).join('***');
  return out;
}

/** An error as one line for a row or a message: the server's message, else the error's, redacted. */
export const errorText = (err) => redact(err?.sqlMessage || err?.message || String(err));
