// Which of a commit's files its package ships and runs: its package.json's `files`, or, without them,
// everything but dot-files, tests, docs and examples.

// Where a package without `files` keeps what it does not ship.
const NOT_SHIPPED = /^(?:\.|test\/|tests\/|benchmarks?\/|docs?\/|examples?\/|website\/)/;

/** Pure: a `files` entry as a test of a path: the file itself, a directory's contents, or a glob (`*`, `**`). */
function filesEntry(entry) {
  const clean = entry.replace(/^\.\//, '').replace(/\/+$/, '');
  if (!/[*?]/.test(clean)) return (path) => path === clean || path.startsWith(`${clean}/`);
  const source = clean.split('/').map((part) => (part === '**' ? '.*' : part.replace(/[.+^${}()|[\]\\]/g, '\\$&').replace(/\*/g, '[^/]*').replace(/\?/g, '[^/]'))).join('/');
  const re = new RegExp(`^${source}(?:/.*)?$`);
  return (path) => re.test(path);
}

/** Pure: does a changed path belong to what the package installs and runs? (package.json: by its dependency tree.) */
export function isInstalledPath(path, files) {
  if (path === 'package.json' || /\.d\.[cm]?ts$|\.md$/i.test(path)) return false;
  if (!Array.isArray(files)) return !NOT_SHIPPED.test(path);
  return files.filter((f) => !f.startsWith('!')).some((f) => filesEntry(f)(path));
}
