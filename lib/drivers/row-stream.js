// Consuming a driver's row stream the same way for every driver: one synchronous callback per row,
// nothing kept, the promise settles once the driver has read the whole result.

/**
 * `rowEvent`: 'result' for mysql/mysql2, 'data' for a Readable. When `onRow` throws, the rest of the
 * result is still read (the connection stays usable) without calling it, and the promise rejects with
 * that error; else it resolves to the number of rows.
 */
export function consumeRows(emitter, rowEvent, onRow) {
  return new Promise((resolve, reject) => {
    let count = 0;
    let failure = null;
    let settled = false;
    const settle = (err) => {
      if (settled) return;
      settled = true;
      if (err) reject(err);
      else resolve(count);
    };
    emitter.on(rowEvent, (row) => {
      count++;
      if (failure) return;
      try {
        onRow(row);
      } catch (err) {
        failure = err;
      }
    });
    emitter.on('error', (err) => settle(err ?? new Error('stream closed')));
    emitter.on('end', () => settle(failure));
  });
}
