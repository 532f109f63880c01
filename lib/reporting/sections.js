// Pure: everything a run prints about its results, in order: the verdict, a release history, the main
// table, then the rate and scaling tables and each bench's and probe's own section (in the bench
// list's order; a section with nothing to show is ''). No bench is named here.
import { BENCHES } from '../../benchs/index.js';
import { renderScaling } from './scaling.js';
import { renderRates } from './rate-tables.js';
import { renderTable } from './table.js';
import { renderHistoryText } from './history.js';
import { renderVerdictText } from './verdict-text.js';

/** Pure: the sections after the main table ('' when there are none). */
export function renderSections(results, benches = BENCHES) {
  const own = [...new Set(benches.map((b) => b.section).filter(Boolean))];
  const probes = [...new Set(benches.map((b) => b.probe?.section).filter(Boolean))];
  return [renderRates(results), renderScaling(results), ...own.map((render) => render(results)), ...probes.map((render) => render(results))]
    .filter(Boolean).join('');
}

/** Pure: what a run prints on stdout: the verdict, a release history, the main table, then every section. */
export function renderRun(results, { color = false, latency = false } = {}, benches = BENCHES) {
  return renderVerdictText(results) + renderHistoryText(results) + renderTable(results, { color, latency }) + renderSections(results, benches);
}
