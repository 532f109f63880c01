// Pure SVG helpers shared by the HTML page's charts (html.js, forest.js): escaping, axis steps, the drivers' colours, and
// the bar chart with error bars drawn per bench. Inline SVG only: no script, no font, no URL.
export function esc(value) {
  return String(value ?? '')
    .replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;')
    .replace(/"/g, '&quot;').replace(/'/g, '&#39;');
}

/** A "nice" axis step (1, 2, 2.5 or 5 × 10^n) for about `count` ticks up to `max`. */
export function niceStep(max, count = 5) {
  if (!(max > 0)) return 1;
  const raw = max / count;
  const mag = 10 ** Math.floor(Math.log10(raw));
  for (const m of [1, 2, 2.5, 5, 10]) if (m * mag >= raw) return m * mag;
  return 10 * mag;
}

// Colour-blind-safe palette (Okabe-Ito), one colour per driver label, stable across charts.
const PALETTE = ['#0072B2', '#E69F00', '#009E73', '#CC79A7', '#56B4E9', '#D55E00', '#7f7f7f', '#F0E442'];

/** A colour per driver label, in the order given: (name) => colour. */
export function driverColours(names) {
  const m = new Map();
  names.forEach((n, i) => m.set(n, PALETTE[i % PALETTE.length]));
  return (name) => m.get(name) ?? PALETTE[m.size % PALETTE.length];
}

/** One colour for every row: a release history's rows are releases of one driver, and a palette there would read as its step chart's better and worse. */
export const oneColour = () => PALETTE[0];

const compact = (n) => {
  if (n >= 1e6) return `${+(n / 1e6).toFixed(n % 1e6 ? 1 : 0)}M`;
  if (n >= 1e3) return `${+(n / 1e3).toFixed(n % 1e3 ? 1 : 0)}k`;
  return String(+n.toFixed(1));
};

/** Pure: a bar chart's geometry: its sizes, each group's height, and the value axis (x(v), its step and end). */
function barLayout(groups, marker) {
  const width = 960;
  // The label column fits the longest driver label or protocol line (approximate glyph widths).
  const longest = Math.max(0, ...groups.map((g) => Math.max(String(g.label).length * 8.6, String(g.sublabel ?? '').length * 7.2)));
  const labelW = Math.round(Math.min(330, Math.max(150, longest + 24)));
  const textW = 280;
  const [plotX, plotW] = [labelW, width - labelW - textW];
  const [barH, barGap, groupGap, groupMin, top] = [22, 5, 12, 42, 30]; // groupMin: room for the two-line label
  const barsH = (g) => Math.max(1, g.bars.length) * (barH + barGap) - barGap;
  const groupHeights = groups.map((g) => Math.max(groupMin, barsH(g)));
  const plotH = groupHeights.reduce((s, h) => s + h, 0) + groupGap * (groups.length + 1);
  // The scale follows the bars; a whisker far longer than its bar (a tiny, noisy sample) is cut at
  // the edge with an arrow rather than squashing every bar.
  const maxValue = Math.max(1, ...groups.flatMap((g) => g.bars.map((b) => b.value)), marker?.value ?? 0);
  const maxWhisker = Math.max(1, ...groups.flatMap((g) => g.bars.map((b) => b.value + (b.err || 0))));
  const want = Math.min(Math.max(maxValue * 1.08, maxWhisker * 1.02), maxValue * 1.6);
  const step = niceStep(want);
  const axisMax = Math.ceil(want / step) * step;
  const x = (v) => plotX + (Math.min(axisMax, Math.max(0, v)) / axisMax) * plotW;
  return { width, height: top + plotH + 32, labelW, plotX, plotW, plotH, top, barH, barGap, groupGap, barsH, groupHeights, step, axisMax, x };
}

const HALO = 'paint-order="stroke" stroke="#fff" stroke-width="4" stroke-linejoin="round"';

/** Pure: one bar, its error bar (cut with an arrow at the axis's end) and its text, at `by`. */
function barParts(b, by, { barH, axisMax, x }) {
  const parts = [];
  const mid = by + barH / 2;
  const [x0, x1] = [x(0), x(b.value)];
  parts.push(`<rect x="${x0.toFixed(1)}" y="${by.toFixed(1)}" width="${Math.max(1, x1 - x0).toFixed(1)}" height="${barH}" fill="${b.colour}"${b.bold ? ' stroke="#111" stroke-width="2"' : ''}><title>${esc(b.text)}</title></rect>`);
  let end = x1;
  if (b.err > 0) {
    const [lo, hi] = [x(b.value - b.err), x(b.value + b.err)];
    end = Math.max(end, hi);
    const caps = [`<line x1="${lo.toFixed(1)}" y1="${mid - 6}" x2="${lo.toFixed(1)}" y2="${mid + 6}"/>`];
    caps.push(b.value + b.err > axisMax
      ? `<polyline fill="none" points="${(hi - 7).toFixed(1)},${mid - 5} ${hi.toFixed(1)},${mid} ${(hi - 7).toFixed(1)},${mid + 5}"/>`
      : `<line x1="${hi.toFixed(1)}" y1="${mid - 6}" x2="${hi.toFixed(1)}" y2="${mid + 6}"/>`);
    parts.push(`<g stroke="#111" stroke-width="1.6"><line x1="${lo.toFixed(1)}" y1="${mid}" x2="${hi.toFixed(1)}" y2="${mid}"/>${caps.join('')}</g>`);
  }
  parts.push(`<text x="${(end + 8).toFixed(1)}" y="${(mid + 5).toFixed(1)}" font-size="14" fill="#1a1a1a" ${HALO}${b.bold ? ' font-weight="600"' : ''}>${esc(b.text)}</text>`);
  return parts;
}

/** Pure: a group's label, its message when it has no bar, and its bars, in `h` from `y`. */
function groupParts(g, y, h, layout) {
  const { labelW, plotX, barH, barGap, barsH } = layout;
  const parts = [];
  const cy = y + h / 2;
  parts.push(`<text x="${labelW - 12}" y="${(g.sublabel ? cy - 3 : cy + 5).toFixed(1)}" font-size="15" font-weight="600" fill="#1a1a1a" text-anchor="end">${esc(g.label)}</text>`);
  if (g.sublabel) parts.push(`<text x="${labelW - 12}" y="${(cy + 14).toFixed(1)}" font-size="13" fill="${g.alert ? '#b71c1c" font-weight="700' : '#555'}" text-anchor="end">${esc(g.sublabel)}</text>`);
  if (!g.bars.length) {
    const failed = g.messageClass === 'failed';
    parts.push(`<text x="${plotX + 10}" y="${(cy + 5).toFixed(1)}" font-size="14" fill="${failed ? '#b71c1c' : '#555'}"${failed ? ' font-weight="600"' : ''}>${esc(g.message ?? '')}</text>`);
  }
  const by0 = cy - barsH(g) / 2;
  g.bars.forEach((b, bi) => parts.push(...barParts(b, by0 + bi * (barH + barGap), layout)));
  return parts;
}

/**
 * A horizontal bar chart with error bars.
 * groups: [{ label, sublabel, bars: [{ value, err, colour, text, bold }], message, messageClass }]
 * marker: { value, label } draws a dashed line (the baseline's figure).
 */
export function barChart({ title, groups, marker, unit = 'ops/s' }) {
  const layout = barLayout(groups, marker);
  const { width, height, plotX, plotW, plotH, top, groupGap, groupHeights, step, axisMax, x } = layout;
  const parts = [`<rect x="0" y="0" width="${width}" height="${height}" fill="#fff"/>`];
  // Grid and axis.
  for (let v = 0; v <= axisMax + step / 2; v += step) {
    const gx = x(v).toFixed(1);
    parts.push(`<line x1="${gx}" y1="${top - 4}" x2="${gx}" y2="${top + plotH}" stroke="${v === 0 ? '#444' : '#e2e2e2'}" stroke-width="1"/>`);
    parts.push(`<text x="${gx}" y="${top + plotH + 20}" font-size="14" fill="#333" text-anchor="middle">${esc(compact(v))}</text>`);
  }
  parts.push(`<text x="${plotX + plotW}" y="${top - 12}" font-size="14" fill="#333" text-anchor="end">${esc(unit)} →</text>`);
  let y = top + groupGap;
  groups.forEach((g, gi) => {
    parts.push(...groupParts(g, y, groupHeights[gi], layout));
    y += groupHeights[gi] + groupGap;
  });
  if (marker && marker.value > 0) {
    const mx = x(marker.value).toFixed(1);
    parts.push(`<line x1="${mx}" y1="${top - 4}" x2="${mx}" y2="${top + plotH}" stroke="#111" stroke-width="1.5" stroke-dasharray="5 4"/>`);
    parts.push(`<text x="${mx}" y="${top - 12}" font-size="13" fill="#111" text-anchor="middle" ${HALO}>${esc(marker.label)}</text>`);
  }
  // No xmlns: inline SVG in HTML does not need it, and the page carries no URL at all.
  return `<svg class="chart" role="img" aria-label="${esc(title)}" viewBox="0 0 ${width} ${height}" width="${width}" height="${height}">${parts.join('')}</svg>`;
}
