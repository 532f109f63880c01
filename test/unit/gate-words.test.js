// ci-driver's and bisect's --count, pure: the run each asks for (a counter's name; JIT names only for
// a counter that keeps profiles) and a change in the counter's words, + is more. The comment and the
// verdict in those words: gate-comment.test.js; the gate and bisect run for real: test/integration/allocation-gate.test.js.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { gateRequest } from '../../lib/gate.js';
import { countRequest, moreOrFewer } from '../../lib/bisect.js';
import { counterNamed } from '../../lib/replay/counters/index.js';

test("ci-driver's run: --count as given, --jit-names only with a Valgrind counter's profiles; instructions by default", () => {
  const asked = (count) => gateRequest({ repo: '/r', pkg: null, base: 'B', head: 'H', benches: ['do'], out: '/o', json: '/o/x.json', ...(count ? { count } : {}) });
  const counted = ({ count, flags }) => ({ count, flags });
  assert.deepEqual(counted(asked()), { count: 'instructions', flags: { jitNames: true } });
  assert.deepEqual(counted(asked('cycles')), { count: 'cycles', flags: { jitNames: true } });
  assert.deepEqual(counted(asked('allocations')), { count: 'allocations', flags: {} });
  assert.throws(() => asked('bytes'), /--count bytes: no such counter/);
});

test("bisect's run counts with --count's counter, and says a change in its words", () => {
  const asked = (count) => countRequest({ repo: '/r', pkg: 'mysql2', commits: ['A'], benches: ['do'], out: '/o', json: '/o/x.json', ...(count ? { count } : {}) });
  assert.deepEqual(asked('allocations'), { benches: ['do'], drivers: ['mysql2@git:/r#A'], count: 'allocations', out: '/o', json: '/o/x.json', flags: { quiet: true } });
  assert.equal(asked().count, 'instructions');
  const allocations = counterNamed('allocations');
  assert.deepEqual([4.8, -4.6, 0].map((pct) => moreOrFewer(pct, allocations)),
    ['+4.8 % more bytes allocated/op', '-4.6 % fewer bytes allocated/op', '0 % the same bytes allocated/op']);
  assert.equal(moreOrFewer(8), '+8 % more instructions/op');
  assert.equal(moreOrFewer(1.5, counterNamed('cycles')), '+1.5 % more estimated cycles/op');
});
