// The proxy's and the probe's line protocol: one JSON object per line, in both directions.

/** Call `onLine` with each complete line `stream` delivers (as text, without its newline). */
export function eachLine(stream, onLine) {
  let buf = '';
  stream.setEncoding('utf8');
  stream.on('data', (d) => {
    buf += d;
    let nl;
    while ((nl = buf.indexOf('\n')) >= 0) {
      const line = buf.slice(0, nl);
      buf = buf.slice(nl + 1);
      onLine(line);
    }
  });
}
