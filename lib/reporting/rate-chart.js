// Pure SVG: a bench's latency against throughput (--rate): per driver the rate it did (x) and its p50
// (solid) and p99 (dashed) latency from the intended starts (y, logarithmic: past the maximum they grow
// by orders of magnitude), a point per rate asked, hollow where the driver did not sustain it.
import { esc, niceStep } from './svg.js';
import { fmtOps } from '../common/format-numbers.js';

const W = 760;
const H = 300;
const PAD = { left: 64, right: 150, top: 24, bottom: 40 };
const f1 = (x) => Math.round(x * 10) / 10;

const usText = (us) => (us >= 1000 ? `${+(us / 1000).toFixed(us >= 10000 ? 0 : 1)} ms` : `${Math.round(us)} µs`);

/** Pure: the chart of rateData()'s bench `b` ({ bench, entries }), each driver in `colour(driver)`. '' when nothing was measured. */
export function rateChartSvg(b, colour) {
  const series = new Map();
  for (const entry of b.entries) {
    for (const row of entry.results) {
      if (!row.ok || !row.rate || !(row.latency?.p50 > 0)) continue;
      if (!series.has(row.driver)) series.set(row.driver, []);
      series.get(row.driver).push({ x: row.rate.achievedPerSec, p50: row.latency.p50, p99: row.latency.p99, sustained: row.rate.sustained });
    }
  }
  const points = [...series.values()].flat();
  if (points.length === 0) return '';
  for (const s of series.values()) s.sort((a, c) => a.x - c.x);
  const xMax = Math.max(...points.map((p) => p.x)) * 1.08;
  const lo = Math.floor(Math.log10(Math.min(...points.map((p) => p.p50))));
  const hi = Math.ceil(Math.log10(Math.max(...points.map((p) => p.p99 ?? p.p50))));
  const top = Math.max(hi, lo + 1);
  const plotW = W - PAD.left - PAD.right;
  const plotH = H - PAD.top - PAD.bottom;
  const x = (v) => PAD.left + (v / xMax) * plotW;
  const y = (us) => PAD.top + plotH - ((Math.log10(us) - lo) / (top - lo)) * plotH;
  const out = [`<svg class="chart" viewBox="0 0 ${W} ${H}" width="${W}" height="${H}" role="img" aria-label="${esc(`${b.bench}: latency against throughput`)}">`];
  out.push(`<title>${esc(`${b.bench}: p50 and p99 latency from the intended start against the rate done`)}</title>`);
  for (let e = lo; e <= top; e++) {
    out.push(`<line x1="${PAD.left}" x2="${PAD.left + plotW}" y1="${f1(y(10 ** e))}" y2="${f1(y(10 ** e))}" stroke="#e4e4e4"/>`);
    out.push(`<text x="${PAD.left - 6}" y="${f1(y(10 ** e) + 4)}" font-size="11" text-anchor="end" fill="#555">${esc(usText(10 ** e))}</text>`);
  }
  const step = niceStep(xMax, 4);
  for (let v = 0; v <= xMax; v += step) {
    out.push(`<text x="${f1(x(v))}" y="${H - PAD.bottom + 16}" font-size="11" text-anchor="middle" fill="#555">${esc(fmtOps(v))}</text>`);
  }
  out.push(`<text x="${PAD.left + plotW / 2}" y="${H - 6}" font-size="12" text-anchor="middle" fill="#333">ops/s done</text>`);
  out.push(`<line x1="${PAD.left}" x2="${PAD.left}" y1="${PAD.top}" y2="${PAD.top + plotH}" stroke="#999"/>`);
  out.push(`<line x1="${PAD.left}" x2="${PAD.left + plotW}" y1="${PAD.top + plotH}" y2="${PAD.top + plotH}" stroke="#999"/>`);
  let legendY = PAD.top + 6;
  for (const [driver, s] of series) {
    const c = colour(driver);
    for (const [key, dash] of [['p50', ''], ['p99', ' stroke-dasharray="5 3"']]) {
      const pts = s.filter((p) => p[key] > 0);
      if (pts.length > 1) out.push(`<polyline fill="none" stroke="${c}" stroke-width="2"${dash} points="${pts.map((p) => `${f1(x(p.x))},${f1(y(p[key]))}`).join(' ')}"/>`);
      for (const p of pts) {
        out.push(`<circle cx="${f1(x(p.x))}" cy="${f1(y(p[key]))}" r="3.5" fill="${p.sustained ? c : '#fff'}" stroke="${c}" stroke-width="1.5"><title>${esc(`${driver} ${key} ${usText(p[key])} at ${fmtOps(p.x)} ops/s${p.sustained ? '' : ' (rate not sustained)'}`)}</title></circle>`);
      }
    }
    out.push(`<line x1="${W - PAD.right + 14}" x2="${W - PAD.right + 34}" y1="${legendY}" y2="${legendY}" stroke="${c}" stroke-width="2"/>`);
    out.push(`<text x="${W - PAD.right + 40}" y="${legendY + 4}" font-size="12" fill="#222">${esc(driver)}</text>`);
    legendY += 18;
  }
  out.push(`<text x="${W - PAD.right + 14}" y="${legendY + 8}" font-size="11" fill="#555">solid p50, dashed p99;</text>`);
  out.push(`<text x="${W - PAD.right + 14}" y="${legendY + 22}" font-size="11" fill="#555">hollow: not sustained</text>`);
  out.push('</svg>');
  return out.join('');
}
