#!/usr/bin/env node
// How long lib/'s functions are and how much of it is comments: every function (named, method or
// arrow with a body) longer than --over lines, longest first, and the share of non-blank lines that
// are comments. Braces are matched by a small lexer that knows strings, templates, comments and regexes.
//   node scripts/function-sizes.js [--over 60] [dir...]        (default dir: lib)
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));
const args = process.argv.slice(2);
const overAt = args.indexOf('--over');
const over = overAt >= 0 ? Number(args.splice(overAt, 2)[1]) : 60;
const dirs = args.length ? args : ['lib'];

const filesIn = (dir) => readdirSync(dir).flatMap((name) => {
  const path = join(dir, name);
  return statSync(path).isDirectory() ? filesIn(path) : /\.(c|m)?js$/.test(name) ? [path] : [];
});

const KEYWORDS = new Set(['if', 'for', 'while', 'switch', 'catch', 'with', 'return', 'else', 'do', 'try', 'finally']);
/** What a `{` opens, from the code before it since the last statement boundary: a function's name, '<arrow>', or null (a block or object). */
function opener(prefix) {
  const text = prefix.replace(/\s+/g, ' ').trim();
  const params = String.raw`\((?:[^()]|\((?:[^()]|\([^()]*\))*\))*\)`;
  let m = new RegExp(String.raw`.*\bfunction\b\s*\*?\s*([\w$]*)\s*${params}$`).exec(text);
  if (m) return m[1] || '<function>';
  if (/=>$/.test(text)) {
    m = new RegExp(String.raw`(?:^|[^\w$.])([\w$]+)\s*[=:]\s*(?:async\s*)?(?:${params}|[\w$]+)\s*=>$`).exec(text);
    return m ? m[1] : '<arrow>';
  }
  m = new RegExp(String.raw`(?:^|[{};]\s*)(?:async\s+)?(?:static\s+)?(?:get\s+|set\s+)?([\w$#]+)\s*${params}$`).exec(text);
  if (m && !KEYWORDS.has(m[1])) return m[1];
  return null;
}

/** The functions of one source text ({ name, line, lines }) and its comment and non-blank line counts. */
export function measure(source) {
  const functions = [];
  const stack = []; // { name, line } per open brace; templates push { template: true }
  const commentLines = new Set();
  const codeLines = new Set(); // lines with code on them: a trailing comment does not make a comment line
  let [i, line, prefix, lastSignificant] = [0, 1, '', ''];
  const regexAllowed = () => /(^|[(,=:[!&|?{};+\-*%<>~^]|\breturn|\btypeof|\bcase)\s*$/.test(lastSignificant.slice(-12));
  while (i < source.length) {
    const c = source[i];
    const next = source[i + 1];
    if (c === '\n') { line++; i++; prefix += ' '; continue; }
    if (c === '/' && next === '/') {
      const end = source.indexOf('\n', i);
      commentLines.add(line);
      i = end < 0 ? source.length : end;
      continue;
    }
    if (c === '/' && next === '*') {
      const end = source.indexOf('*/', i + 2);
      const stop = end < 0 ? source.length : end + 2;
      for (let l = line; l <= line + (source.slice(i, stop).match(/\n/g) ?? []).length; l++) commentLines.add(l);
      line += (source.slice(i, stop).match(/\n/g) ?? []).length;
      i = stop;
      continue;
    }
    if (c === '"' || c === "'" || (c === '/' && regexAllowed())) {
      let j = i + 1;
      let inClass = false;
      while (j < source.length && (source[j] !== c || inClass) && source[j] !== '\n') {
        if (source[j] === '\\') j++;
        else if (c === '/' && source[j] === '[') inClass = true;
        else if (c === '/' && source[j] === ']') inClass = false;
        j++;
      }
      prefix += '""';
      lastSignificant = 'x';
      codeLines.add(line);
      i = j + 1;
      continue;
    }
    if (c === '`' || (c === '}' && stack.at(-1)?.template)) {
      codeLines.add(line);
      if (c === '}') prefix = `${stack.pop().outer}""`;
      let j = i + 1;
      while (j < source.length && source[j] !== '`' && !(source[j] === '$' && source[j + 1] === '{')) {
        if (source[j] === '\\') j++;
        else if (source[j] === '\n') line++;
        j++;
      }
      if (source[j] === '$') { stack.push({ template: true, outer: prefix }); i = j + 2; prefix = ''; lastSignificant = '{'; continue; }
      prefix += '""';
      lastSignificant = 'x';
      i = j + 1;
      continue;
    }
    if (c === '{') {
      // The code before the brace is kept, so that what follows its closing brace reads in context
      // (a destructured parameter, then the function's own body).
      stack.push({ name: opener(prefix), line, outer: prefix });
      prefix = '';
    } else if (c === '}') {
      const open = stack.pop();
      if (open?.name) functions.push({ name: open.name, line: open.line, lines: line - open.line + 1 });
      prefix = `${open?.outer ?? ''}{}`;
    } else if (c === ';') prefix = '';
    else prefix += c;
    if (!/\s/.test(c)) {
      lastSignificant = (lastSignificant + c).slice(-12);
      codeLines.add(line);
    }
    i++;
  }
  const nonBlank = source.split('\n').filter((l) => l.trim()).length;
  return { functions, commentLines: [...commentLines].filter((l) => !codeLines.has(l)).length, nonBlank };
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const long = [];
  let [comments, lines] = [0, 0];
  for (const file of dirs.flatMap((d) => filesIn(join(root, d)))) {
    const m = measure(readFileSync(file, 'utf8'));
    comments += m.commentLines;
    lines += m.nonBlank;
    for (const f of m.functions.filter((x) => x.lines > over)) long.push({ ...f, file: relative(root, file) });
  }
  long.sort((a, b) => b.lines - a.lines);
  for (const f of long) process.stdout.write(`${String(f.lines).padStart(4)}  ${f.file}:${f.line} ${f.name}\n`);
  process.stdout.write(`${long.length} function(s) over ${over} lines in ${dirs.join(', ')}; comments ${(100 * comments / lines).toFixed(1)} % of ${lines} non-blank lines\n`);
}
