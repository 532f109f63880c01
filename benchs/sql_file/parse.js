// The --sql file format (docs/benches.md): SQL statements split on `;` outside quotes and comments,
// `:name` placeholders, and `\set name random(lo, hi)` / `\set name one_of(v, …)` lines giving them
// values. Pure: text in, statements and value sets out; what is wrong is a usage error naming file:line.
import { usageError } from '../../lib/common/errors.js';
import { seededRandom } from '../../lib/common/seeded-random.js';

const FUNCTIONS = 'random(lo, hi) or one_of(v, …)';

/** What a statement that changes a server starts with: anything not a read, a transaction's edge or a session SET. */
const READS = new Set(['SELECT', 'WITH', 'SHOW', 'DESC', 'DESCRIBE', 'EXPLAIN', 'DO', 'VALUES', 'TABLE',
  'BEGIN', 'START', 'COMMIT', 'ROLLBACK', 'SAVEPOINT', 'RELEASE']);

/** Whether a statement writes (or may write): its first keyword is not a read; SET only when GLOBAL or PERSIST. */
export function isWrite(sql) {
  const words = sql.replace(/^[\s(]+/, '').split(/\s+/, 3).map((w) => w.toUpperCase());
  if (/\bINTO\s+(OUTFILE|DUMPFILE)\b/i.test(sql)) return true; // a file written on the server's host
  if (words[0] === 'SET') return /^(GLOBAL|PERSIST|PERSIST_ONLY|@@GLOBAL)/.test(words[1] ?? '') || /@@GLOBAL\./i.test(sql);
  return !READS.has(words[0]);
}

/**
 * Split SQL text into statements: `;` ends one outside '…', "…", `…`, -- …, # … and /* … *\/ (comments are
 * dropped); `\` lines between statements are meta-commands. Returns { statements: [{ sql, line,
 * placeholders }], metas: [{ text, line }] }; `placeholders` are the `:name`s in order, each now a `?`.
 */
export function splitSql(text) {
  const statements = [];
  const metas = [];
  let buf = '';
  let startLine = 1;
  let line = 1;
  let placeholders = [];
  let blank = true; // buf holds only white space so far (kept as a flag: trimming buf at every character is quadratic)
  const flush = () => {
    const sql = buf.trim();
    if (sql) statements.push({ sql, line: startLine, placeholders });
    buf = '';
    blank = true;
    placeholders = [];
  };
  const NAME = /[A-Za-z_][A-Za-z0-9_]*/y;
  let i = 0;
  const n = text.length;
  while (i < n) {
    const c = text[i];
    if (c === '\n') { line++; buf += c; i++; continue; }
    if (blank) startLine = line;
    // A meta-command: a line of its own that starts with a backslash, between statements.
    if (c === '\\' && blank) {
      const end = text.indexOf('\n', i);
      const stop = end < 0 ? n : end;
      metas.push({ text: text.slice(i, stop).trim(), line });
      i = stop;
      continue;
    }
    if (c === "'" || c === '"' || c === '`') {
      let j = i + 1;
      while (j < n) {
        if (text[j] === '\\' && c !== '`') { j += 2; continue; }
        if (text[j] === c) {
          if (text[j + 1] === c) { j += 2; continue; } // a doubled quote
          break;
        }
        j++;
      }
      const piece = text.slice(i, j + 1);
      line += (piece.match(/\n/g) ?? []).length;
      buf += piece;
      blank = false;
      i = j + 1;
      continue;
    }
    if ((c === '-' && text[i + 1] === '-' && /\s/.test(text[i + 2] ?? ' ')) || c === '#') {
      const end = text.indexOf('\n', i);
      i = end < 0 ? n : end;
      buf += ' ';
      continue;
    }
    if (c === '/' && text[i + 1] === '*') {
      const end = text.indexOf('*/', i + 2);
      const stop = end < 0 ? n : end + 2;
      line += (text.slice(i, stop).match(/\n/g) ?? []).length;
      buf += ' ';
      i = stop;
      continue;
    }
    if (!/\s/.test(c)) blank = false;
    if (c === ':' && /[A-Za-z_]/.test(text[i + 1] ?? '') && text[i - 1] !== ':') {
      NAME.lastIndex = i + 1;
      const m = NAME.exec(text);
      placeholders.push(m[0]);
      buf += '?';
      i += 1 + m[0].length;
      continue;
    }
    if (c === ';') { flush(); i++; continue; }
    buf += c;
    i++;
  }
  flush();
  return { statements, metas };
}

/** One literal of one_of(…): 'text' (with '' or \' inside) or a number. */
function parseLiterals(args, where) {
  const values = [];
  let rest = args.trim();
  while (rest) {
    let m;
    if ((m = /^'((?:[^'\\]|''|\\.)*)'/.exec(rest))) values.push(m[1].replace(/''/g, "'").replace(/\\(.)/g, '$1'));
    else if ((m = /^-?\d+(\.\d+)?/.exec(rest))) values.push(Number(m[0]));
    else throw usageError(`${where}: one_of takes 'quoted text' or numbers, not ${rest.split(',')[0].trim()}`);
    rest = rest.slice(m[0].length).trim();
    if (rest && !rest.startsWith(',')) throw usageError(`${where}: one_of's values are separated by commas`);
    rest = rest.slice(1).trim();
  }
  if (!values.length) throw usageError(`${where}: one_of needs at least one value`);
  return values;
}

/** `fn(args)` and what follows: nothing, `;`, or a comment (-- or #); null when it is not a call. */
function splitCall(expr) {
  const m = /^([A-Za-z_]\w*)\s*\(/.exec(expr);
  if (!m) return null;
  let i = m[0].length;
  while (i < expr.length && expr[i] !== ')') {
    if (expr[i] === "'") {
      i++;
      while (i < expr.length && !(expr[i] === "'" && expr[i + 1] !== "'")) i += expr[i] === "'" || expr[i] === '\\' ? 2 : 1;
    }
    i++;
  }
  if (i >= expr.length) return null;
  const rest = expr.slice(i + 1).trim();
  if (rest && !/^;?\s*(?:(?:--\s|#).*)?$/.test(rest)) return null;
  return { fn: m[1], args: expr.slice(m[0].length, i) };
}

/** A `\set` line: { name, kind: 'random', lo, hi } or { name, kind: 'one_of', values }. */
export function parseSet(text, where) {
  const m = /^\\set\s+([A-Za-z_][A-Za-z0-9_]*)\s+(.*)$/.exec(text);
  if (!m) {
    const command = text.split(/\s/)[0];
    if (command !== '\\set') throw usageError(`${where}: unknown meta-command ${command}`, 'the one meta-command is \\set name random(lo, hi) or \\set name one_of(v, …)');
    throw usageError(`${where}: \\set needs a name and a value: \\set name ${FUNCTIONS}`);
  }
  const [, name, expr] = m;
  const call = splitCall(expr.trim());
  if (!call) throw usageError(`${where}: \\set ${name} needs ${FUNCTIONS}, not ${expr.trim()}`);
  const { fn, args } = call;
  if (fn === 'random') {
    const r = /^\s*(-?\d+)\s*,\s*(-?\d+)\s*$/.exec(args);
    if (!r) throw usageError(`${where}: random takes two whole numbers, random(lo, hi)`);
    const lo = Number(r[1]);
    const hi = Number(r[2]);
    if (!Number.isSafeInteger(lo) || !Number.isSafeInteger(hi) || lo > hi) throw usageError(`${where}: random(${lo}, ${hi}) needs lo ≤ hi, both within 2^53`);
    return { name, kind: 'random', lo, hi };
  }
  if (fn === 'one_of') return { name, kind: 'one_of', values: parseLiterals(args, where) };
  throw usageError(`${where}: unknown \\set function ${fn}`, `use ${FUNCTIONS}`);
}

/**
 * A --sql file: { statements: [{ sql, line, placeholders, write }], sets: [{ name, … }] }. Every
 * placeholder must have a \set; a file with no statement is refused.
 */
export function parseSqlFile(text, file) {
  const { statements, metas } = splitSql(text);
  const sets = [];
  for (const meta of metas) {
    const s = parseSet(meta.text, `${file}:${meta.line}`);
    const at = sets.findIndex((x) => x.name === s.name);
    if (at >= 0) sets[at] = s;
    else sets.push(s);
  }
  if (!statements.length) throw usageError(`${file}: no SQL statement in it`);
  const known = new Set(sets.map((s) => s.name));
  for (const st of statements) {
    const missing = st.placeholders.find((p) => !known.has(p));
    if (missing) throw usageError(`${file}:${st.line}: placeholder :${missing} has no value`, `add a line \\set ${missing} ${FUNCTIONS}`);
    st.write = isWrite(st.sql);
  }
  return { statements, sets };
}

/** The statements of a --setup file (no placeholders, no \set). */
export function parseSetupFile(text, file) {
  const { statements, metas } = splitSql(text);
  if (metas.length) throw usageError(`${file}:${metas[0].line}: a --setup file takes SQL only, not ${metas[0].text.split(/\s/)[0]}`);
  const withPlaceholder = statements.find((s) => s.placeholders.length);
  if (withPlaceholder) throw usageError(`${file}:${withPlaceholder.line}: a --setup file has no placeholders (:${withPlaceholder.placeholders[0]})`);
  if (!statements.length) throw usageError(`${file}: no SQL statement in it`);
  return statements;
}


/** `count` parameter sets: for each, each statement's parameters in order, drawn from the seeded sequence. */
export function parameterCycle({ statements, sets }, count, seed = 54) {
  const next = seededRandom(seed);
  const cycle = [];
  for (let k = 0; k < count; k++) {
    const values = {};
    for (const s of sets) {
      values[s.name] = s.kind === 'random' ? s.lo + Math.floor(next() * (s.hi - s.lo + 1)) : s.values[Math.floor(next() * s.values.length)];
    }
    cycle.push(statements.map((st) => st.placeholders.map((p) => values[p])));
  }
  return cycle;
}
