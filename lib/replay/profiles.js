// Each counted row's callgrind profile, kept gzipped in <out>/profiles/<startedAt>/<bench>/<driver>/
// (the row's count.profile): its windows' dumps and its perf map. Over PROFILE_CAP_BYTES in all, the
// oldest rows' profiles, any run's, are removed first.
import fs from 'node:fs';
import path from 'node:path';
import zlib from 'node:zlib';

// A smoke row's three windows are about 0.3 MB gzipped, a full row's a few MB: some hundred rows.
export const PROFILE_CAP_BYTES = 256 * 2 ** 20;

export const PROFILES_DIR = 'profiles';
export const windowFile = (i) => `window-${i + 1}.cg.gz`;
export const PERF_MAP_FILE = 'perf.map.gz';

const segment = (name) => String(name).replace(/[^A-Za-z0-9._@#+=-]/g, '_');

export const profilePath = (startedAt, bench, driver) => [PROFILES_DIR, segment(startedAt.replace(/[:.]/g, '-')), segment(bench), segment(driver)].join('/');

export function keepProfile({ files, dest }) {
  fs.rmSync(dest, { recursive: true, force: true });
  fs.mkdirSync(dest, { recursive: true });
  files.forEach((file, i) => fs.writeFileSync(path.join(dest, windowFile(i)), zlib.gzipSync(fs.readFileSync(file), { level: 9 })));
}

/** Read once the process has ended: V8 buffers the map's lines until then. */
export function keepPerfMap(perfMap, dests) {
  if (!perfMap || !dests.length || !fs.existsSync(perfMap)) return;
  const gz = zlib.gzipSync(fs.readFileSync(perfMap), { level: 9 });
  for (const dest of dests) fs.writeFileSync(path.join(dest, PERF_MAP_FILE), gz);
}

function rowDirs(root) {
  const rows = [];
  const list = (d) => (fs.existsSync(d) ? fs.readdirSync(d, { withFileTypes: true }).filter((e) => e.isDirectory()).map((e) => path.join(d, e.name)) : []);
  for (const run of list(root)) {
    for (const bench of list(run)) {
      for (const row of list(bench)) {
        const files = fs.readdirSync(row).map((f) => fs.statSync(path.join(row, f)));
        rows.push({ dir: row, bytes: files.reduce((n, s) => n + s.size, 0), time: Math.max(0, ...files.map((s) => s.mtimeMs)) });
      }
    }
  }
  return rows;
}

export function pruneProfiles(root, cap = PROFILE_CAP_BYTES) {
  const rows = rowDirs(root).sort((a, b) => a.time - b.time || a.dir.localeCompare(b.dir));
  let total = rows.reduce((n, r) => n + r.bytes, 0);
  let removed = 0;
  for (const r of rows) {
    if (total <= cap) break;
    fs.rmSync(r.dir, { recursive: true, force: true });
    total -= r.bytes;
    removed++;
    for (let d = path.dirname(r.dir); d.startsWith(root) && d !== root; d = path.dirname(d)) {
      if (fs.readdirSync(d).length) break;
      fs.rmdirSync(d);
    }
  }
  return removed;
}

/** Null when the profile is gone. */
export function readProfile(dir) {
  if (!fs.existsSync(path.join(dir, windowFile(0)))) return null;
  const windows = [];
  for (let i = 0; fs.existsSync(path.join(dir, windowFile(i))); i++) windows.push(zlib.gunzipSync(fs.readFileSync(path.join(dir, windowFile(i)))).toString('utf8'));
  const map = path.join(dir, PERF_MAP_FILE);
  return { windows, perfMap: fs.existsSync(map) ? zlib.gunzipSync(fs.readFileSync(map)).toString('utf8') : null };
}
