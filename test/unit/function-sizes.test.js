// scripts/function-sizes.js as a check: no function in lib/ over 60 lines, and its lexer finds
// functions as they are written here (destructured parameters, templates, regexes, methods).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { measure } from '../../scripts/function-sizes.js';

const SCRIPT = fileURLToPath(new URL('../../scripts/function-sizes.js', import.meta.url));

test('the lexer: named functions, arrows and methods, each with its lines, past templates, regexes and comments', () => {
  const source = [
    '// a comment with a { brace',
    'export function outer(a, { b, c }) {',
    '  const re = /[{}]/g; // } in a regex',
    '  const t = `${a ? `{${b}}` : "}"}`;',
    '  const inner = (x) => {',
    '    return x;',
    '  };',
    '  return inner(c);',
    '}',
    'class K {',
    '  method(y) {',
    '    return { y };',
    '  }',
    '}',
    '',
  ].join('\n');
  const { functions, commentLines, nonBlank } = measure(source);
  assert.deepEqual(functions.map((f) => [f.name, f.line, f.lines]), [['inner', 5, 3], ['outer', 2, 8], ['method', 11, 3]]);
  assert.equal(commentLines, 1);
  assert.equal(nonBlank, 14);
});

test('no function in lib/ is over 60 lines', () => {
  const r = spawnSync(process.execPath, [SCRIPT, '--over', '60'], { encoding: 'utf8' });
  assert.equal(r.status, 0, r.stderr);
  assert.match(r.stdout, /^0 function\(s\) over 60 lines in lib; comments [\d.]+ % of \d+ non-blank lines\n$/, r.stdout);
});
