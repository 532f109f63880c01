// Pure: the run's answer in one picture, a forest plot: per bench and driver with a paired Δ, a point and
// a whisker for its interval, the resolution (or a count's noise floor) as a band around 0, `~` rows grey
// and hollow. As inline SVG for the HTML page, and as text for Markdown (GitHub does not inline SVG).
import { fmtDelta } from './format.js';
import { fmtOps } from '../common/format-numbers.js';
import { counterOf } from '../replay/counters/index.js';
import { driverColours, esc, niceStep } from './svg.js';

/** Intervals beyond ±CLAMP_PCT are cut at the axis' edge (an arrow) rather than squashing every other line. */
export const CLAMP_PCT = 200;

/** The plot's lines, in bench then driver order: every measured row with a Δ that is not its bench's reference. */
export function forestData(results) {
  const baseline = results.settings?.baseline;
  const count = results.settings?.count;
  const order = (results.drivers ?? []).map((d) => d.name);
  const rank = (name) => (order.includes(name) ? order.indexOf(name) : order.length);
  const items = [];
  for (const bench of results.benches ?? []) {
    const reference = bench.deltaReference ?? baseline;
    const rows = [...bench.results].sort((a, b) => rank(a.driver) - rank(b.driver));
    for (const row of rows) {
      if (!row.ok || row.driver === reference || !Number.isFinite(row.deltaPct)) continue;
      const ci = Array.isArray(row.deltaCI) && row.deltaCI.every(Number.isFinite) ? row.deltaCI : null;
      items.push({
        bench: bench.name,
        driver: row.driver,
        // At a fixed rate (--rate) the Δ is the p50 latency's.
        label: `${bench.name}${bench.rate?.askedPerSec ? ` at ${fmtOps(bench.rate.askedPerSec)}/s (p50)` : ''} · ${row.driver}${reference === baseline ? '' : ` vs ${reference}`}`,
        deltaPct: row.deltaPct,
        ci,
        significant: row.deltaSignificant === true,
        text: fmtDelta(row, bench, baseline, { digits: count ? 2 : 1 }),
      });
    }
  }
  const bandPct = count ? count.noiseFloorPct : results.resolution?.pct;
  const band = Number.isFinite(bandPct) && bandPct > 0 ? bandPct : null;
  return {
    items,
    band,
    bandName: count ? 'the count\'s noise floor' : 'the run\'s resolution',
    baseline,
    plus: count ? `more ${counterOf(count).noun}` : 'faster',
    minus: count ? `fewer ${counterOf(count).noun}` : 'slower',
  };
}

/** The axis: it covers every interval, every point, the band and 0, cut at ±CLAMP_PCT; ticks at a nice step. */
export function forestScale(items, band) {
  const values = [0, ...(band ? [-band, band] : []), ...items.flatMap((i) => [i.deltaPct, ...(i.ci ?? [])])];
  let lo = Math.max(-CLAMP_PCT, Math.min(...values));
  let hi = Math.min(CLAMP_PCT, Math.max(...values));
  if (hi - lo <= 0) { lo -= 1; hi += 1; }
  const pad = (hi - lo) * 0.04;
  const step = niceStep(hi - lo + 2 * pad, 6);
  lo = Math.floor((lo - (lo < 0 ? pad : 0)) / step) * step;
  hi = Math.ceil((hi + (hi > 0 ? pad : 0)) / step) * step;
  const edge = Math.ceil(CLAMP_PCT / step) * step; // the padding does not carry the axis past the cut
  lo = Math.max(lo, -edge);
  hi = Math.min(hi, edge);
  const ticks = [];
  for (let k = Math.round(lo / step); k * step <= hi + step / 2; k++) ticks.push(k * step);
  const cut = items.some((i) => [i.deltaPct, ...(i.ci ?? [])].some((v) => v < lo || v > hi));
  return { lo, hi, step, ticks, cut };
}

export function fmtTick(v, step) {
  const decimals = Math.max(0, Math.ceil(-Math.log10(step) - 1e-9) + (String(step / 10 ** Math.floor(Math.log10(step))).includes('.') ? 1 : 0));
  const s = Math.abs(v) < step / 1e6 ? '0' : v.toFixed(decimals);
  return `${v > 0 && s !== '0' ? '+' : ''}${s}${s === '0' ? '' : ' %'}`;
}

const f1 = (n) => n.toFixed(1);

function forestRow(item, n, previous, { top, rowH, width, labelW, maxChars, plotX, plotW, lo, hi, x, colour }) {
  const parts = [];
  const mid = top + 4 + n * rowH + rowH / 2;
  if (n > 0 && previous.bench !== item.bench) parts.push(`<line x1="8" y1="${mid - rowH / 2}" x2="${width - 8}" y2="${mid - rowH / 2}" stroke="#ececec" stroke-width="1"/>`);
  const ink = item.significant ? '#1a1a1a' : '#8a8a8a';
  const label = item.label.length > maxChars ? `${item.label.slice(0, maxChars - 1)}…` : item.label;
  const g = [`<title>${esc(`${item.label}: ${item.text}${item.ci ? ` (interval ${item.ci.map((v) => v.toFixed(2)).join(' … ')} %)` : ' (no interval: too few rounds)'}`)}</title>`];
  g.push(`<text x="${labelW - 12}" y="${mid + 5}" font-size="14" fill="${ink}" text-anchor="end">${esc(label)}</text>`);
  if (item.ci) {
    const [a, b] = item.ci;
    const [xa, xb] = [x(a), x(b)];
    const end = (xe, cutHere, dir) => (cutHere
      ? `<polyline fill="none" points="${f1(xe - 7 * dir)},${mid - 5} ${f1(xe)},${mid} ${f1(xe - 7 * dir)},${mid + 5}"/>`
      : `<line x1="${f1(xe)}" y1="${mid - 5}" x2="${f1(xe)}" y2="${mid + 5}"/>`);
    g.push(`<g class="forest-whisker" stroke="${ink}" stroke-width="1.6"><line x1="${f1(xa)}" y1="${mid}" x2="${f1(xb)}" y2="${mid}"/>${end(xa, a < lo, -1)}${end(xb, b > hi, 1)}</g>`);
  }
  // A point beyond the axis sits just inside the whisker's arrow; its text gives the value.
  const px = f1(item.deltaPct > hi ? x(hi) - 12 : item.deltaPct < lo ? x(lo) + 12 : x(item.deltaPct));
  g.push(item.significant
    ? `<circle class="forest-point forest-sig" cx="${px}" cy="${mid}" r="5.5" fill="${colour(item.driver)}" stroke="#111" stroke-width="1.2"/>`
    : `<circle class="forest-point forest-ns" cx="${px}" cy="${mid}" r="5" fill="#fff" stroke="#8a8a8a" stroke-width="1.6"/>`);
  g.push(`<text x="${plotX + plotW + 12}" y="${mid + 5}" font-size="14" fill="${ink}"${item.significant ? ' font-weight="600"' : ''}>${esc(item.text)}</text>`);
  parts.push(`<g class="forest-row ${item.significant ? 'forest-sig' : 'forest-ns'}">${g.join('')}</g>`);
  return parts;
}

/** Inline SVG ('' when the run has no Δ); `colour(driver)` fills a significant point. */
export function forestSvg(results, { colour = () => '#0072B2' } = {}) {
  const data = forestData(results);
  const { items, band } = data;
  if (!items.length) return '';
  const { lo, hi, ticks, step, cut } = forestScale(items, band);
  const width = 960;
  const longest = Math.max(...items.map((i) => i.label.length));
  // A 14 px sans-serif label is up to about 7.9 px a character (rendered with librsvg and Chromium).
  const charW = 7.9;
  const labelW = Math.round(Math.min(400, Math.max(160, longest * charW + 24)));
  const maxChars = longest * charW + 24 > 400 ? Math.floor((labelW - 24) / charW) : longest;
  const textW = 190;
  const plotX = labelW;
  const plotW = width - labelW - textW;
  const rowH = 24;
  const top = 34;
  const plotH = items.length * rowH + 8;
  const height = top + plotH + 58;
  const x = (v) => plotX + ((Math.min(hi, Math.max(lo, v)) - lo) / (hi - lo)) * plotW;
  const x0 = x(0);
  const parts = [`<rect x="0" y="0" width="${width}" height="${height}" fill="#fff"/>`];
  if (band) {
    parts.push(`<rect class="forest-band" x="${f1(x(-band))}" y="${top}" width="${f1(Math.max(1, x(band) - x(-band)))}" height="${plotH}" fill="#dfe8f1"><title>${esc(`${data.bandName}: ±${band} %`)}</title></rect>`);
  }
  for (const v of ticks) {
    const gx = f1(x(v));
    if (Math.abs(v) > step / 1e6) parts.push(`<line x1="${gx}" y1="${top}" x2="${gx}" y2="${top + plotH}" stroke="#e2e2e2" stroke-width="1"/>`);
    parts.push(`<text x="${gx}" y="${top + plotH + 18}" font-size="13" fill="#333" text-anchor="middle">${esc(fmtTick(v, step))}</text>`);
  }
  parts.push(`<line class="forest-zero" x1="${f1(x0)}" y1="${top - 6}" x2="${f1(x0)}" y2="${top + plotH}" stroke="#444" stroke-width="1.2"/>`);
  // The two directions, either side of 0, kept inside the picture when 0 is near an edge.
  const left = `← ${data.minus} than ${data.baseline}`;
  const right = `${data.plus} →`;
  parts.push(`<text x="${f1(Math.max(x0 - 8, left.length * 6.8 + 4))}" y="${top - 12}" font-size="13" fill="#333" text-anchor="end">${esc(left)}</text>`);
  parts.push(`<text x="${f1(Math.min(x0 + 8, width - right.length * 6.8 - 4))}" y="${top - 12}" font-size="13" fill="#333">${esc(right)}</text>`);
  const layout = { top, rowH, width, labelW, maxChars, plotX, plotW, lo, hi, x, colour };
  items.forEach((item, n) => parts.push(...forestRow(item, n, items[n - 1], layout)));
  const legend = [band ? `shaded: ${data.bandName}, ±${band} %` : `no band: ${data.bandName} was not measured`,
    'grey hollow point, ~: no real difference', ...(cut ? [`arrow: interval cut at the axis (±${CLAMP_PCT} % at most)`] : [])];
  parts.push(`<text x="${plotX}" y="${top + plotH + 42}" font-size="13" fill="#555">${esc(legend.join(' · '))}</text>`);
  const title = `every paired Δ against ${data.baseline}, with its interval`;
  return `<svg class="forest" role="img" aria-label="${esc(title)}" viewBox="0 0 ${width} ${height}" width="${width}" height="${height}">${parts.join('')}</svg>`;
}

/** The plot as an SVG file of its own (`report --svg`): with the namespace, font and colours a file needs. */
export function forestSvgFile(results) {
  const svg = forestSvg(results, { colour: driverColours((results.drivers ?? []).map((d) => d.name)) });
  if (!svg) return '';
  const font = 'system-ui, -apple-system, Segoe UI, Roboto, Arial, sans-serif';
  return `<?xml version="1.0" encoding="UTF-8"?>\n${svg.replace('<svg ', `<svg xmlns="http://www.w3.org/2000/svg" font-family="${font}" `)}\n`;
}

/** The same picture as text lines for Markdown, on an axis of `width` characters ([] when the run has no Δ). */
export function forestTextLines(results, { width = 41 } = {}) {
  const data = forestData(results);
  const { items, band } = data;
  if (!items.length) return [];
  const { lo, hi, step, cut } = forestScale(items, band);
  const col = (v) => Math.round(((Math.min(hi, Math.max(lo, v)) - lo) / (hi - lo)) * (width - 1));
  const labelW = Math.min(40, Math.max(...items.map((i) => i.label.length)));
  const fit = (s) => (s.length > labelW ? `${s.slice(0, labelW - 1)}…` : s.padEnd(labelW));
  const zero = col(0);
  const axis = Array(width).fill(' ');
  const put = (text, at) => { for (let k = 0; k < text.length; k++) if (at + k >= 0 && at + k < width) axis[at + k] = text[k]; };
  const loText = fmtTick(lo, step);
  const hiText = fmtTick(hi, step);
  put(loText, 0);
  put(hiText, width - hiText.length);
  if (zero > loText.length && zero < width - hiText.length - 1) put('0', zero);
  const lines = [`${' '.repeat(labelW)}  ${axis.join('').trimEnd()}`];
  for (const item of items) {
    const cells = Array(width).fill(' ');
    if (band) for (let k = col(-band); k <= col(band); k++) cells[k] = '·';
    cells[zero] = '|';
    if (item.ci) {
      const [a, b] = [col(item.ci[0]), col(item.ci[1])];
      for (let k = a + 1; k < b; k++) if (k !== zero) cells[k] = '-';
      cells[a] = item.ci[0] < lo ? '<' : '[';
      cells[b] = item.ci[1] > hi ? '>' : ']';
    }
    const at = item.deltaPct > hi ? width - 2 : item.deltaPct < lo ? 1 : col(item.deltaPct); // beyond the axis: beside its arrow
    cells[at] = item.significant ? '●' : '○';
    lines.push(`${fit(item.label)}  ${cells.join('')}  ${item.text}`);
  }
  const legend = [`● Δ vs ${data.baseline}, + = ${data.plus}`, '[ ] interval', '○ ~ no real difference',
    ...(band ? [`··· ${data.bandName.replace(/^the (run's )?/, '')} ±${band} %`] : []), ...(cut ? [`< > cut at ±${CLAMP_PCT} %`] : [])];
  lines.push(legend.join(' · '));
  return lines;
}

export function forestMarkdown(results) {
  const lines = forestTextLines(results);
  return lines.length ? ['```text', ...lines, '```', ''] : [];
}
