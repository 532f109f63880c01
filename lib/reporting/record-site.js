// Pure: the public record (results/record.js) as one static page, readable offline: the drivers' latest
// releases side by side, each one's latest release against its best and worst, the steps an upgrade
// crosses, then each driver's step charts and tables with their commits and functions.
import { recordSteps, RECORD_COUNTERS } from '../results/record.js';
import { counterNamed } from '../replay/counters/index.js';
import { fmtOps } from '../common/format-numbers.js';
import { esc } from './svg.js';
import { historySvg, fmtStepChange } from './history.js';
import { functionsText } from './function-name.js';

// Where each driver's commits are read.
export const DRIVER_REPOSITORIES = {
  mysql2: 'https://github.com/sidorares/node-mysql2',
  mariadb: 'https://github.com/mariadb-corporation/mariadb-connector-nodejs',
  mysql: 'https://github.com/mysqljs/mysql',
};
const DRIVER_ORDER = ['mysql', 'mysql2', 'mariadb'];
const unitOf = (key) => counterNamed(RECORD_COUNTERS[key]).unit;
const KEYS = Object.keys(RECORD_COUNTERS);

/** Pure: a record's counted releases of `key` on `bench`: [{ version, value }]. */
const pointsOf = (record, key, bench) => record.releases.filter((r) => r[key]?.[bench] > 0).map((r) => ({ version: r.version, value: r[key][bench] }));

/** Pure: every bench a record counted, in the first release's order. */
const benchesOf = (records) => [...new Set(records.flatMap((r) => r.releases.flatMap((x) => Object.keys(x.instructions ?? {}))))];

/** Pure: the timed run of the newest releases as a table: ops/s and Δ against mysql. */
function timedSideBySide(latest, benches) {
  if (!latest?.benches) return '<p class="sub">No timed run of these releases yet: <code>npm run benchmark</code> gives one for your machine.</p>';
  const drivers = DRIVER_ORDER.filter((d) => latest.versions?.[d]);
  const cell = (c) => (!c ? '<td>-</td>' : c.why ? `<td class="sub">${esc(c.why)}</td>`
    : `<td>${esc(fmtOps(c.opsPerSec))}${c.deltaPct !== null && c.deltaPct !== 0 ? ` <span class="vs">${esc(fmtStepChange(c.deltaPct))}${c.significant ? '' : ' (within noise)'}</span>` : ''}</td>`);
  const rows = benches.filter((b) => latest.benches[b]).map((b) => `<tr><td>${esc(b)}</td>${drivers.map((d) => cell(latest.benches[b][d])).join('')}</tr>`);
  return `<p>A timed run of these releases against a real MariaDB (${esc(latest.env?.server ?? '')}, Node ${esc(latest.env?.node ?? '')}, ${esc(String(latest.env?.cpus ?? '?'))} cores, ${esc(String(latest.at ?? '').slice(0, 10))}): ops/s, and in grey the Δ against ${esc(latest.baseline ?? 'mysql')} (+ is faster), as the default run reports it.</p>
<table class="timed"><thead><tr><th>bench</th>${drivers.map((d) => `<th>${esc(d)} ${esc(latest.versions[d])}</th>`).join('')}</tr></thead><tbody>${rows.join('')}</tbody></table>`;
}

function sideBySide(records, benches, timed) {
  const latest = records.map((r) => ({ driver: r.driver, release: r.releases.filter((x) => x.instructions).at(-1) }));
  const reference = latest.find((l) => l.driver === 'mysql')?.release;
  const cell = (l, key, bench) => {
    const v = l.release?.[key]?.[bench];
    if (!(v > 0)) return '<td>-</td>';
    const ref = reference?.[key]?.[bench];
    const vs = ref > 0 && l.driver !== 'mysql' ? ` <span class="vs">${esc(fmtStepChange((v / ref - 1) * 100))} vs mysql</span>` : '';
    return `<td>${esc(fmtOps(v))}${vs}</td>`;
  };
  const head = latest.map((l) => `<th>${esc(l.driver)} ${esc(l.release?.version ?? '')}</th>`).join('');
  const rows = benches.flatMap((bench) => KEYS.map((key) => `<tr><td>${esc(bench)}</td><td>${esc(unitOf(key))}</td>${latest.map((l) => cell(l, key, bench)).join('')}</tr>`));
  return `<section id="latest"><h2>The latest releases side by side</h2>
<p class="sub">Each driver's newest release in the record, per operation (fewer is better); the Δ against mysql is the count's own (+ is more work).</p>
<table><thead><tr><th>bench</th><th>counted</th>${head}</tr></thead><tbody>${rows.join('')}</tbody></table>
${timedSideBySide(timed, benches)}</section>`;
}

function latestAgainstBest(records, benches) {
  const rows = [];
  for (const r of records) {
    for (const bench of benches) {
      for (const key of KEYS) {
        const points = pointsOf(r, key, bench);
        if (points.length < 2) continue;
        const last = points.at(-1);
        const best = points.reduce((a, b) => (b.value < a.value ? b : a));
        const worst = points.reduce((a, b) => (b.value > a.value ? b : a));
        const vs = (p) => `${esc(p.version)}: ${esc(fmtOps(p.value))} (${esc(fmtStepChange((last.value / p.value - 1) * 100))})`;
        rows.push(`<tr><td>${esc(r.driver)}</td><td>${esc(bench)}</td><td>${esc(unitOf(key))}</td><td>${esc(last.version)}: ${esc(fmtOps(last.value))}</td><td>${vs(best)}</td><td>${vs(worst)}</td></tr>`);
      }
    }
  }
  return `<section id="best-worst"><h2>The latest release against the best and the worst</h2>
<p class="sub">In brackets: the latest release against that one (+ is more work now).</p>
<table><thead><tr><th>driver</th><th>bench</th><th>counted</th><th>latest</th><th>best</th><th>worst</th></tr></thead><tbody>${rows.join('')}</tbody></table></section>`;
}

const commitLink = (driver, commit) => (commit?.commit
  ? `<a href="${esc(`${DRIVER_REPOSITORIES[driver]}/commit/${commit.commit}`)}">${esc(commit.commit.slice(0, 7))}</a> ${esc(commit.subject ?? '')}`
  : commit?.why ? `<span class="sub">${esc(commit.why)}</span>` : '');

/** Pure: a step's timed replay: the later release's ops/s against the earlier's, and whether it went the count's way. */
const timedCell = (t) => (!t ? '' : t.why ? `<span class="sub">${esc(t.why)}</span>`
  : `${esc(fmtStepChange(t.opsPerSecPct))} ops/s${t.agrees && t.significant ? ', confirmed' : t.significant ? ', against the count' : ', within noise'}`);

function stepRow(driver, s) {
  return `<tr data-from="${esc(s.from)}"><td>${esc(s.bench)}</td><td>${esc(unitOf(s.key))}</td><td>${esc(s.from)} → ${esc(s.to)}</td><td>${esc(fmtOps(s.fromValue))} → ${esc(fmtOps(s.toValue))}</td>`
    + `<td class="${s.changePct > 0 ? 'worse' : 'better'}">${esc(fmtStepChange(s.changePct))}</td><td>${commitLink(driver, s.commit)}</td><td>${timedCell(s.timed)}</td><td><code>${esc(functionsText(s.functions))}</code></td></tr>`;
}

function upgrades(records) {
  const parts = records.map((r) => {
    const steps = recordSteps(r);
    const options = r.releases.map((x) => `<option value="${esc(x.version)}">${esc(x.version)}</option>`).join('');
    return `<h3>${esc(r.driver)}</h3><p><label>Your version: <select class="from" data-driver="${esc(r.driver)}">${options}</select></label> the steps an upgrade to ${esc(r.releases.at(-1)?.version ?? '')} crosses:</p>
<table class="upgrade" data-driver="${esc(r.driver)}"><thead><tr><th>bench</th><th>counted</th><th>releases</th><th>per operation</th><th>change</th><th>commit</th><th>timed</th><th>functions</th></tr></thead><tbody>${steps.map((s) => stepRow(r.driver, s)).join('')}</tbody></table>`;
  });
  return `<section id="upgrade"><h2>What an upgrade crosses</h2>${parts.join('\n')}</section>`;
}

function driverSection(r, benches) {
  const steps = recordSteps(r);
  const charts = benches.flatMap((bench) => KEYS.map((key) => {
    const points = pointsOf(r, key, bench);
    if (points.length < 2) return '';
    const h = {
      bench, points: points.map((p) => ({ release: p.version, value: p.value })),
      steps: steps.filter((s) => s.key === key && s.bench === bench).map((s) => ({ ...s, better: s.changePct < 0 })),
    };
    return `<figure><figcaption>${esc(r.driver)} · ${esc(bench)} · ${esc(unitOf(key))}</figcaption>${historySvg(h, unitOf(key))}</figure>`;
  }));
  return `<section class="driver" id="driver-${esc(r.driver)}"><h2>${esc(r.driver)}: ${r.releases.length} releases, ${steps.length} steps</h2>
<p class="sub">Counted on ${esc(r.counted?.instructions?.server ?? 'unknown')}, Node ${esc(r.counted?.instructions?.node ?? 'unknown')}; a step is a change beyond the bench's floor between consecutive releases.</p>
${charts.join('\n')}
<table class="steps"><thead><tr><th>bench</th><th>counted</th><th>releases</th><th>per operation</th><th>change</th><th>commit</th><th>timed</th><th>functions</th></tr></thead><tbody>${steps.map((s) => stepRow(r.driver, s)).join('')}</tbody></table></section>`;
}

// Semver order in the page's one script: an upgrade from `v` crosses the steps whose `from` is v or
// later; `#mysql2=3.23.0` in the address chooses the version.
const SCRIPT = `const parts = (v) => v.split('.').map(Number);
const before = (a, b) => { const [x, y] = [parts(a), parts(b)]; for (let i = 0; i < 3; i++) if (x[i] !== y[i]) return x[i] < y[i]; return false; };
for (const select of document.querySelectorAll('select.from')) {
  const table = document.querySelector('table.upgrade[data-driver="' + select.dataset.driver + '"]');
  const show = () => { for (const row of table.tBodies[0].rows) row.hidden = before(row.dataset.from, select.value); };
  const asked = new URLSearchParams(location.hash.slice(1)).get(select.dataset.driver);
  if (asked) select.value = asked;
  select.addEventListener('change', show);
  show();
}`;

/** Pure: the page of `records` (one per driver). `generatedAt`: when it was built (ISO); `latest`: the timed run of the newest releases, or null. */
export function renderRecordSite(records, { generatedAt, latest = null }) {
  const sorted = [...records].sort((a, b) => DRIVER_ORDER.indexOf(a.driver) - DRIVER_ORDER.indexOf(b.driver));
  const benches = benchesOf(sorted);
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>mysql-driver-bench: the record</title>
<meta name="viewport" content="width=device-width, initial-scale=1">
<style>body{font:14px/1.4 system-ui,sans-serif;margin:2em;max-width:1100px}table{border-collapse:collapse;margin:1em 0}td,th{border:1px solid #ddd;padding:3px 6px;text-align:left;vertical-align:top}.sub,.vs{color:#555;font-size:90%}.worse{color:#D55E00}.better{color:#009E73}figure{margin:1em 0}code{font-size:85%}</style>
</head><body>
<h1>mysql-driver-bench: the record of ${sorted.map((r) => esc(r.driver)).join(', ')}</h1>
<p class="sub">Every release counted on the design benches, in instructions and bytes allocated per operation, replayed from MariaDB's recorded replies (no socket, no server in the figures). Built ${esc(generatedAt)}. <a href="https://github.com/mysql-driver-bench/mysql-driver-bench/blob/main/docs/comparing.md#the-record-record">How it is made</a>.</p>
${sideBySide(sorted, benches, latest)}
${latestAgainstBest(sorted, benches)}
${upgrades(sorted)}
${sorted.map((r) => driverSection(r, benches)).join('\n')}
<script>${SCRIPT}</script>
</body></html>
`;
}
