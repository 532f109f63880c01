// Pure: a driver's gate (ci-driver --comment) as the pull request's comment in Markdown, opening with its
// verdict in words and ending with the hidden marker scripts/pr-comment.js finds it by. Which moved benches
// are V8's, not the driver's, is decided here too (unsettledBenches).
import { countFloorPct } from '../results/counts.js';
import { judgedFloorPct } from '../results/fences.js';
import { fmtInt, fmtOps, fmtPct } from '../common/format-numbers.js';
import { counterNamed, counterOf } from '../replay/counters/index.js';
import { GATE_COMMENT_MARKER, NOTHING_MOVED_MARKER } from './gate-markers.js';
import { shortFunctionName } from './function-name.js';

export { GATE_COMMENT_MARKER, NOTHING_MOVED_MARKER, shortFunctionName };

// The label that makes a run report a regression and pass, unless the workflow names another.
export const ACCEPT_LABEL = 'benchmark-accepted';

// Functions listed under a bench that moved: enough to name the change, short enough for a comment.
export const TOP_FUNCTIONS = 5;

// The harness's own functions (its adapter's call into the driver, the bench's operation) are the same
// code at the base and the head: what changed in them is the driver's code TurboFan inlined into them.
const isDriverCode = (f) => /^<driver>\/|^<harness>\/|(?:^|\/)node_modules\//.test(f.where ?? '');

export const functionPlace = (f) => (!f.where ? '' : f.where.startsWith('<harness>/') ? ` (${f.where}, the driver's code inlined into it)` : ` (${f.where})`);

// Said under a bench whose change is mostly outside the driver's code (a path V8 keeps recompiling
// settles on other code when other work came before it in the process).
export const NOT_THE_DRIVER = "Less than half of this change is in the driver's own functions: V8's work on this bench moved";
const V8_SECTION = 'ci.md#when-a-bench-moves-without-the-drivers-code';

/** Pure: the share (%) of a profile diff's total Δ in the driver's own functions among its rows. */
export const driverSharePct = (diff) => (diff.totalDelta ? (100 * diff.rows.filter(isDriverCode).reduce((n, r) => n + r.selfDelta, 0)) / diff.totalDelta : 100);

// A row whose count settled has windows that agree well within this; one in V8's churn spread wider
// (docs/history/2026-11-29-gate-between-commits.md#the-unsettled-rule).
const SETTLED_SPREAD_PCT = 1.5;

/** Pure: did one of two rows' counts not settle: its windows' spread over SETTLED_SPREAD_PCT and twice the other's? */
export const oneUnsettled = ([a, b]) => Number.isFinite(a) && Number.isFinite(b) && Math.max(a, b) > SETTLED_SPREAD_PCT && Math.max(a, b) > 2 * Math.min(a, b);

/**
 * Pure: the benches that moved where V8's work moved, not the driver's: under half of the change in the
 * driver's own functions, the bytes per operation within their floor, and one count unsettled. Without the
 * bytes, a driver's change that shows only in V8's functions (a stack captured per query) would pass as V8's.
 */
export function unsettledBenches(rows, { driverSharePct = {}, bytesFloorOf }) {
  return rows.filter((r) => r.moved && driverSharePct[r.bench] !== undefined && driverSharePct[r.bench] < 50
    && r.bytes?.changePct !== null && r.bytes?.changePct !== undefined && Math.abs(r.bytes.changePct) <= bytesFloorOf(r.bench)
    && oneUnsettled(r.spreads ?? [])).map((r) => r.bench);
}

/** Pure: a wall time in words: "52 s", "1 min 52 s", "1 h 3 min". */
export function fmtWallTime(ms) {
  const s = Math.round(ms / 1000);
  if (s < 60) return `${s} s`;
  if (s < 3600) return `${Math.floor(s / 60)} min ${s % 60} s`;
  return `${Math.floor(s / 3600)} h ${Math.floor((s % 3600) / 60)} min`;
}

/** Pure: a word as a POSIX shell reads it back unchanged. */
const shellWord = (w) => (/^[\w@%+=:,./-]+$/.test(w) ? w : `'${String(w).replace(/'/g, "'\\''")}'`);

/** The counter a gate's results were counted with: settings.count's, instructions where none is named. */
export const gateCounter = (results) => (results.settings?.count?.what ? counterOf(results.settings.count) : counterNamed('instructions'));

const capitalized = (text) => `${text[0].toUpperCase()}${text.slice(1)}`;

const signed = (n, digits = 2) => `${n > 0 ? '+' : n < 0 ? '−' : '±'}${Math.abs(n).toFixed(digits)} %`;
export const signedInt = (n) => `${n > 0 ? '+' : n < 0 ? '−' : '±'}${fmtInt(Math.abs(n))}`;

const changeOf = (a, b) => (a > 0 && b > 0 ? (b / a - 1) * 100 : null);

/** Pure: of two heap states' changes, the smaller when both go one way, 0 when they disagree, else the first. */
export function judgedChange(first, second) {
  if (second === null || second === undefined || first === null) return first;
  if (Math.sign(first) !== Math.sign(second)) return 0;
  return Math.abs(second) < Math.abs(first) ? second : first;
}

/**
 * Pure: each bench's base and head count per operation, its change (head ÷ base − 1: + is more at the
 * head), floor and `moved`; with the bytes counted beside it and a count from a collected heap, those too.
 */
export function gateRows(results, { threshold, base, head }) {
  return (results.benches ?? []).map((bench) => {
    const row = (label) => bench.results.find((r) => r.driver === label);
    const [b, h] = [row(base.label), row(head.label)];
    const perOp = (r) => (r?.ok && r.count?.perOp > 0 ? r.count.perOp : null);
    const [x, y] = [perOp(b), perOp(h)];
    const changePct = changeOf(x, y);
    // The count's floor, or the fence the base branch's history gives the bench where it is wider.
    const fence = results.gate?.fences?.benches?.[bench.name] ?? null;
    const floorPct = judgedFloorPct(fence, countFloorPct(results.settings?.count, bench.name));
    const moved = changePct !== null && Math.abs(changePct) > threshold && Math.abs(changePct) > floorPct;
    const unsteady = Boolean(b?.count?.unsteady || h?.count?.unsteady);
    const beside = (what) => {
      const counted = results.gate?.[what]?.benches?.[bench.name];
      return counted ? { ...counted, changePct: changeOf(counted.base, counted.head) } : null;
    };
    const [bytes, collected] = [beside('bytes'), beside('collected')];
    // What stands in a count's cell when there is none: the row's status (failed, n/a) or its absence.
    const cell = (r, n) => (n !== null ? fmtInt(n) : r?.status === 'n/a' ? 'n/a' : r ? 'failed' : 'not run');
    return {
      bench: bench.name, base: x, head: y, changePct, judgedPct: judgedChange(changePct, collected?.changePct), floorPct, fence, moved, unsteady, bytes, collected,
      spreads: [b?.count?.spreadPct, h?.count?.spreadPct], cells: [cell(b, x), cell(h, y)],
    };
  });
}

/** Pure: a counter's own figures (its `columns`, e.g. writes/op) at the base and head of each bench that moved. */
export function movedColumns(results, { threshold, base, head }) {
  const columns = gateCounter(results).columns ?? [];
  if (!columns.length) return {};
  const byBench = {};
  for (const r of gateRows(results, { threshold, base, head }).filter((m) => m.moved)) {
    const rows = results.benches.find((b) => b.name === r.bench).results;
    const countOf = (label) => rows.find((x) => x.driver === label)?.count;
    const [b, h] = [countOf(base.label), countOf(head.label)];
    const figures = columns.map((c) => ({ head: c.head, base: b && c.of(b), atHead: h && c.of(h) }))
      .filter((f) => Number.isFinite(f.base) && Number.isFinite(f.atHead));
    if (figures.length) byBench[r.bench] = figures;
  }
  return byBench;
}

/** Pure: a bench's moved columns in words: `writes/op 1.0 → 2.0 (+100.00 %), sent B/op 17.0 → 17.0 (±0.00 %)`. */
export const columnsText = (figures) => figures
  .map((f) => `${f.head} ${fmtOps(f.base)} → ${fmtOps(f.atHead)}${f.base > 0 ? ` (${signed((f.atHead / f.base - 1) * 100)})` : ''}`).join(', ');


/** Pure: a change's size in words, as many digits as it needs: "113 %", "12.1 %", "3.25 %". */
export const sizeInWords = (pct) => {
  const a = Math.abs(pct);
  return `${a >= 100 ? a.toFixed(0) : a >= 10 ? a.toFixed(1) : a.toFixed(2)} %`;
};

/** Pure: benches and their changes in one clause: "`do` needs 3.25 % more, `insert` 3.40 % more and 2 more benches". */
function benchesClause(list, word) {
  const SHOWN = 3;
  const items = list.slice(0, SHOWN).map((r, i) => `\`${r.bench}\`${i ? '' : ' needs'} ${sizeInWords(r.pct)} ${word}`);
  if (list.length > SHOWN) items.push(`${list.length - SHOWN} more bench${list.length - SHOWN === 1 ? '' : 'es'}`);
  return items.length > 1 ? `${items.slice(0, -1).join(', ')} and ${items.at(-1)}` : items[0];
}

/**
 * Pure: the comment's first line ("❌ `execute` needs 113 % more instructions per operation than the base:
 * worse"). `accept`: { label, by }, by the one who applied the label (null: not applied).
 */
export function commentHeadline(results, rows, { verdict, threshold, accept = null }) {
  const { perOp } = gateCounter(results);
  const worse = (verdict.regressions ?? []).map((r) => ({ bench: r.bench, pct: r.deltaPct }));
  const judged = rows.filter((r) => r.judgedPct !== null && !r.unsteady && !verdict.unsettled?.includes(r.bench));
  const better = judged.filter((r) => r.judgedPct < -Math.max(threshold, r.floorPct)).map((r) => ({ bench: r.bench, pct: r.judgedPct }));
  const v8 = rows.filter((r) => verdict.unsettled?.includes(r.bench));
  const unsteady = rows.filter((r) => r.unsteady).map((r) => `\`${r.bench}\``);
  const failed = [...new Set(results.benches.filter((b) => b.results.some((r) => r.status === 'failed')).map((b) => `\`${b.name}\``))];
  const parts = [];
  if (worse.length) parts.push(`${benchesClause(worse, 'more')} ${perOp} than the base: worse`);
  if (better.length) parts.push(`${benchesClause(better, 'fewer')} ${perOp}${worse.length ? '' : ' than the base'}: better`);
  if (v8.length) parts.push(`${v8.map((r) => `\`${r.bench}\`'s ${signed(r.changePct)}`).join(', ')} ${v8.length === 1 ? 'is' : 'are'} V8's work, not the driver's: not failed`);
  if (unsteady.length) parts.push(`${unsteady.join(', ')} not judged (unsteady)`);
  if (failed.length) parts.push(`${failed.join(', ')}: a row failed`);
  if (results.complete === false) parts.push(`the run stopped part-way${results.stoppedBy ? ` (${results.stoppedBy})` : ''}`);
  const fails = (verdict.regressed && !accept?.by) || verdict.failed.length > 0 || results.complete === false;
  const accepted = verdict.regressed && accept?.by && !fails ? `Accepted by ${accept.by} (label \`${accept.label}\`): ` : '';
  if (!parts.length) return `✅ Nothing moved: no bench needs more than ${threshold} % more ${perOp} than the base`;
  const lead = worse.length || better.length ? '' : `No change of the driver's beyond ${threshold} %: `;
  return `${fails ? '❌' : '✅'} ${accepted}${lead}${parts.join('; ')}`;
}

/**
 * `verdict`: driverVerdict's; `docs`: the docs URL of the version that ran (links are absolute: the comment
 * is read on the driver's repository); `artifact` (optional): { name, path, run }, the results file as
 * `profile` reads it, `run`: { id, repository } for an artifact a workflow run uploaded (then inside the
 * downloaded directory `name`); `profiles` (optional): { functions, driverSharePct } per bench that moved.
 */
export function renderGateComment(results, { verdict, threshold, base, head, wallMs, docs, accept = { label: ACCEPT_LABEL, by: null }, artifact = null, profiles = null }) {
  const counter = gateCounter(results);
  const rows = gateRows(results, { threshold, base, head });
  const moved = rows.filter((r) => r.moved);
  const benches = `${rows.length} bench${rows.length === 1 ? '' : 'es'}`;
  const link = (text, section) => `[${text}](${docs}${section})`;
  const headline = commentHeadline(results, rows, { verdict, threshold, accept });
  const quiet = !moved.length && !rows.some((r) => r.unsteady) && !verdict.regressed && !verdict.failed.length && results.complete !== false;
  if (quiet) return `${headline} (${benches}, ${fmtWallTime(wallMs)}).\n\n${NOTHING_MOVED_MARKER}\n${GATE_COMMENT_MARKER}\n`;

  // The verdict's lines after its first: the ❌/✅/⚠️ list, with each bench in backticks.
  const listed = verdict.lines.slice(1).map((l) => l.replace(/^(- \S+ [A-Z]+: )([\w]+):/, '$1`$2`:'));
  const out = [headline, '', `${verdict.lines[0].replace(/:$/, '.')}`, ...listed, ''];
  const bytes = rows.some((r) => r.bytes);
  const bytesCell = (b) => (!b ? '-' : `${b.base === null ? '-' : fmtInt(b.base)} → ${b.head === null ? '-' : fmtInt(b.head)}${b.changePct === null ? '' : ` (${signed(b.changePct)})`}`);
  out.push(`| bench | base | head | change |${bytes ? ' bytes/op |' : ''} floor |`, `|:--|--:|--:|--:|${bytes ? '--:|' : ''}--:|`);
  for (const r of rows) {
    const first = r.changePct === null ? '-' : r.moved ? `**${signed(r.changePct)}**` : signed(r.changePct);
    const change = r.collected?.changePct !== null && r.collected?.changePct !== undefined ? `${first} (collected ${signed(r.collected.changePct)})` : first;
    out.push(`| \`${r.bench}\` | ${r.cells[0]} | ${r.cells[1]} | ${change} |${bytes ? ` ${bytesCell(r.bytes)} |` : ''} ${r.fence && r.floorPct === r.fence.fencePct ? `_${fmtPct(r.floorPct, 2)}_` : fmtPct(r.floorPct, 2)} |`);
  }
  const fences = results.gate?.fences;
  const fenced = fences && rows.some((r) => r.fence && r.floorPct === r.fence.fencePct) ? `; a floor in italics is the bench's ${link('fence', 'ci.md#fences-from-the-base-branchs-history')} from the base branch's last ${fences.commits} commits counted` : '';
  const again = rows.some((r) => r.collected) ? '; collected: a bench that moved, counted again from a heap collected before the driver loads, the smaller change judged' : '';
  out.push('', `${capitalized(counter.perOp)}; + is more at the head (worse), − fewer (better); ${link('floor', 'ci.md#a-drivers-repository-the-action')}: a change within it is not called${fenced}${bytes ? '; bytes/op: the bytes allocated per operation, base → head, counted beside it' : ''}${again}. ${benches}, ${fmtWallTime(wallMs)} in all (installs and captures included).`);

  const functions = profiles?.functions ?? {};
  for (const r of moved.filter((m) => functions[m.bench]?.length)) {
    out.push('', `**\`${r.bench}\`**, the functions whose ${counter.perOp} changed most:`, '');
    out.push(...functions[r.bench].slice(0, TOP_FUNCTIONS).map((f) => `- \`${shortFunctionName(f.name)}\`${f.where ? ` in \`${f.where}\`${f.where.startsWith('<harness>/') ? " (the driver's code inlined into it)" : ''}` : ''} ${signedInt(f.deltaPerOp)}`));
    if ((profiles.driverSharePct?.[r.bench] ?? 100) < 50) out.push('', `${NOT_THE_DRIVER} (${link('why', V8_SECTION)}).`);
  }
  const own = movedColumns(results, { threshold, base, head });
  for (const r of moved.filter((m) => own[m.bench])) out.push('', `**\`${r.bench}\`**, beside it: ${columnsText(own[r.bench])}`);

  if (artifact) {
    const where = artifact.run ? `the artifact \`${artifact.name}\` of this workflow run` : `\`${artifact.name}\``;
    const download = artifact.run ? [`gh run download ${artifact.run.id} -R ${shellWord(artifact.run.repository)} -n ${shellWord(artifact.name)} -D ${shellWord(artifact.name)}`] : [];
    if (counter.tool) {
      const bench = (moved[0] ?? rows.find((r) => r.changePct !== null) ?? rows[0])?.bench;
      const command = ['mysql-driver-bench', 'profile', artifact.path, '--bench', bench, '--a', base.label, '--b', head.label].map(shellWord).join(' ');
      out.push('', `Where the ${counter.noun} went, function by function (any bench with \`--bench\`): the results, kept profiles and replay sets are ${where}.`, '', '```sh', ...download, command, '```');
    } else {
      // A native counter keeps no profile: the results and the replay sets are what there is to read.
      out.push('', `The results (\`${artifact.path}\`) and the replay sets are ${where}.`, ...(download.length ? ['', '```sh', ...download, '```'] : []));
    }
  }
  if (accept && verdict.regressed) {
    out.push('', accept.by
      ? `Accepted: ${accept.by} applied the label \`${accept.label}\`, so this run reports the change and passes. Removing the label judges the next run again.`
      : `If this change is intended, anyone with triage or write access to this repository can apply the label \`${accept.label}\`: the next run reports it and passes (${link('the override', 'ci.md#the-override-label')}).`);
  }
  out.push('', GATE_COMMENT_MARKER);
  return `${out.join('\n')}\n`;
}
