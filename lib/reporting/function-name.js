// A profiled function's name as a report prints it: a C++ name without its return type, parameters
// and clone suffix (`v8::internal::String::WriteToFlat<unsigned char>`), others as they are.
import { fmtOps } from '../common/format-numbers.js';

export function shortFunctionName(name) {
  const bare = name.replace(/ \[clone [^\]]*\]$/, '').replace(/ const$/, '');
  if (!bare.endsWith(')')) return name;
  // The parameter list: from the last ')' back to the '(' that opens it.
  let depth = 0;
  let open = bare.length - 1;
  for (; open >= 0; open--) {
    if (bare[open] === ')') depth++;
    else if (bare[open] === '(' && --depth === 0) break;
  }
  if (open <= 0) return name;
  const head = bare.slice(0, open);
  // The return type ends at the last space outside template brackets.
  let angle = 0;
  for (let i = head.length - 1; i >= 0; i--) {
    if (head[i] === '>') angle++;
    else if (head[i] === '<') angle--;
    else if (head[i] === ' ' && angle === 0) return head.slice(i + 1);
  }
  return head;
}

/** Pure: a step's moved functions in one line: `v8::internal::JSObject::MigrateToMap +363,000, query (<driver>/lib/x.js:3) −533` (a file named unless it is node's own). */
export const functionsText = (list) => (list ?? []).map((f) => `${shortFunctionName(f.name)}${f.where && f.where !== 'node' ? ` (${f.where})` : ''} ${f.deltaPerOp > 0 ? '+' : '−'}${fmtOps(Math.abs(f.deltaPerOp))}`).join(', ');
