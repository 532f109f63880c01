import { expect, expectRows } from '../_check.js';
import { PAYLOAD_LENGTH, STREAM_MAX_ROWS, checkStreamRow, createStreamRows, streamSql } from '../_tables.js';
import { renderStreaming } from './section.js';
import { ROWS_AS_ARRAYS_NOTE } from '../../lib/drivers/variants.js';

// In the main table: 1000 rows read through each driver's streaming API, every row checked as it
// arrives and none kept. The full comparison (1 to 100 000 rows, fetch-all against streaming, time
// and peak memory, each figure from its own child process) is this bench's probe (probe.js), run once
// after the matrix, and its section (section.js).
export const MATRIX_ROWS = 1000;
export const STREAM_SIZES = [1, 10, 100, 1000, STREAM_MAX_ROWS];
const SQL = streamSql(MATRIX_ROWS);

/** Read `sql` through conn.stream, checking row i against id i; resolves to a one-row summary. */
export async function streamChecked(conn, sql) {
  let next = 1;
  const rows = await conn.stream(sql, [], (row) => {
    checkStreamRow(row, next);
    next++;
  });
  return [{ rows, lastId: next - 1 }];
}

/** The streaming probe: results.streaming, and its section after the main table. */
export const streamingProbe = {
  key: 'streaming',
  async run({ drivers, target, settings, signal, log }) {
    log(`streaming section: ${STREAM_SIZES.join(', ')} rows × ${drivers.length} driver(s) × fetch-all/stream, one child process each`);
    const { runStreamingProbe } = await import('./probe.js'); // the harness's side only: driver processes never load it
    return runStreamingProbe({ drivers, target, settings, sizes: STREAM_SIZES, signal, log });
  },
  failed: (streaming) => (streaming.rows ?? []).some((r) => r.status === 'failed'),
  section: renderStreaming,
};

export default {
  name: 'stream_rows',
  notReplayable: 'it measures rows flowing from the server as they are produced, which a replay has no part of',
  title: `${MATRIX_ROWS} rows of ~${PAYLOAD_LENGTH + 4} bytes through the driver's streaming API, one callback per row, none kept `
    + `(the run's streaming section adds fetch-all vs stream for 1..${STREAM_MAX_ROWS} rows with peak memory)`,
  sql: SQL,
  setup: (admin, { schema }) => createStreamRows(admin, schema),
  plan(driver) {
    if (!driver.capabilities.stream) return { unsupported: 'no streaming API in this adapter (stream)' };
    if (driver.extraOptions?.rowsAsArray) return { unsupported: ROWS_AS_ARRAYS_NOTE };
    return { protocol: 'text, streamed', op: (conn) => () => streamChecked(conn, SQL) };
  },
  // Each row was checked as it arrived; the summary says all of them came.
  check(summary) {
    expectRows(summary, 1);
    const { rows, lastId } = summary[0];
    expect(rows === MATRIX_ROWS, () => `expected ${MATRIX_ROWS} rows streamed, got ${rows}`);
    expect(lastId === MATRIX_ROWS, () => `expected the last row to be ${MATRIX_ROWS}, got ${lastId}`);
  },
  probe: streamingProbe,
};
