// A commit of a driver's git repository as a row (`mysql2@git:../node-mysql2#v3.21.1`): its files
// extracted into the harness's cache (the user's checkout is only read), its production dependencies
// installed once per distinct tree and shared, the row labelled with the commit (`mysql2@3.21.1+abc1234`).
import { spawn, spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readlinkSync, realpathSync, rmSync, symlinkSync, unlinkSync, utimesSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { installError, usageError } from '../common/errors.js';
import { describeMissing, missingModules } from './checkout-modules.js';
import { fillIntoPlace } from './cache-entry.js';
import { isDirectory } from './common.js';
import { VERSIONED_PACKAGES, defaultCacheDir, npmReason, runNpm } from './versions.js';
import { isInstalledPath } from './shipped-files.js';

export const GIT_PACKAGES = Object.keys(VERSIONED_PACKAGES);

export const SHORT = 7;

/** `mysql2@git:../x#v3.9.0` -> { package: 'mysql2', repo: '../x', ref: 'v3.9.0' }; `git:../x` -> package null, ref HEAD. */
export function parseGitSpec(spec) {
  const m = /^(?:([\w.-]+)@)?git:([^#]+)(?:#(.*))?$/.exec(spec);
  if (!m) return null;
  return { package: m[1] ?? null, repo: m[2], ref: m[3] ?? 'HEAD' };
}

/** Syntax only, before anything starts: throws a usage error naming what is wrong. */
export function assertGitSpec(spec) {
  const parsed = parseGitSpec(spec);
  if (!parsed) throw usageError(`'${spec}' is not a git driver spec`, 'write <driver>@git:<repository>#<ref>, e.g. mysql2@git:../node-mysql2#v3.9.0');
  if (parsed.package && !GIT_PACKAGES.includes(parsed.package)) {
    throw usageError(`${spec}: '${parsed.package}' is not a driver the harness knows (${GIT_PACKAGES.join(', ')})`,
      'for another driver, write an adapter module (docs/comparing.md, "Custom adapters")');
  }
  if (!parsed.ref || parsed.ref.startsWith('-') || /[\s\0]/.test(parsed.ref)) {
    throw usageError(`${spec}: '${parsed.ref}' is not a git revision`, 'name a branch, a tag, a commit or e.g. HEAD~3 after the #');
  }
  return parsed;
}

/** Run git read-only: no optional locks (no index refresh), no prompts. Returns { code, stdout (bytes), stderr }. */
export function git(args, { cwd } = {}) {
  const r = spawnSync('git', args, {
    cwd,
    encoding: 'buffer',
    maxBuffer: 64 * 1024 * 1024,
    env: { ...process.env, GIT_OPTIONAL_LOCKS: '0', GIT_TERMINAL_PROMPT: '0', LC_ALL: 'C' },
  });
  if (r.error) {
    if (r.error.code === 'ENOENT') throw installError('git is not installed', 'install it (apt-get install git) to measure commits of a repository');
    throw r.error;
  }
  return { code: r.status, stdout: r.stdout, stderr: r.stderr.toString() };
}

export const gitText = (args, spawnOptions) => {
  const r = git(args, spawnOptions);
  return r.code === 0 ? r.stdout.toString().trim() : null;
};

/** { dir, gitDir }: the root of a work tree, or a bare repository; anything else is a usage error. */
export function openRepository(spec, repoPath) {
  const dir = resolve(repoPath);
  if (!isDirectory(dir)) throw usageError(`${spec}: ${dir} is not a directory`, 'point git: at a clone of the driver\'s repository');
  const gitDir = gitText(['-C', dir, 'rev-parse', '--absolute-git-dir']);
  if (!gitDir) throw usageError(`${spec}: ${dir} is not a git repository`, 'point git: at a clone of the driver\'s repository (git clone …), or use file: for a plain directory');
  if (gitText(['-C', dir, 'rev-parse', '--is-bare-repository']) !== 'true') {
    const top = gitText(['-C', dir, 'rev-parse', '--show-toplevel']);
    if (top && realpathSync(top) !== realpathSync(dir)) {
      throw usageError(`${spec}: ${dir} is inside the git repository ${top}, not its root`, `point git: at ${top}`);
    }
  }
  return { dir, gitDir };
}

export function resolveCommit(spec, repo, ref) {
  const sha = gitText(['-C', repo.dir, 'rev-parse', '--verify', '--quiet', '--end-of-options', `${ref}^{commit}`]);
  if (!sha) {
    throw usageError(`${spec}: no commit '${ref}' in ${repo.dir}`,
      `name a branch, tag or commit of it (git -C ${repo.dir} log --oneline); a shallow clone lacks older commits: fetch them (actions/checkout: fetch-depth: 0)`);
  }
  return sha;
}

export function fileAt(repo, sha, path) {
  const r = git(['-C', repo.dir, 'cat-file', 'blob', `${sha}:${path}`]);
  return r.code === 0 ? r.stdout.toString('utf8') : null;
}

function parseJson(text, what) {
  try {
    return JSON.parse(text);
  } catch (err) {
    throw usageError(`${what} is not valid JSON: ${err.message}`);
  }
}

/**
 * Pure: what decides a commit's production install, as one string to hash: a lockfile's non-dev entries
 * (a commit that bumps only a dev tool installs nothing new), else package.json's ranges.
 */
export function productionTree(manifest, lock) {
  const declared = ['dependencies', 'optionalDependencies', 'peerDependencies'].map((k) => [k, manifest[k] ?? {}]);
  if (!lock) return JSON.stringify({ declared, lock: null });
  if (lock.packages) {
    const entries = Object.entries(lock.packages)
      .filter(([path, e]) => path !== '' && !e.dev && !e.extraneous)
      .map(([path, e]) => [path, e.version ?? null, e.resolved ?? null, e.integrity ?? null, e.link ?? false])
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return JSON.stringify({ declared, packages: entries });
  }
  // lockfileVersion 1: a tree of dependencies.
  const walk = (deps, prefix) => Object.entries(deps ?? {}).filter(([, e]) => !e.dev).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
    .flatMap(([name, e]) => [[`${prefix}${name}`, e.version ?? null, e.integrity ?? null], ...walk(e.dependencies, `${prefix}${name}/`)]);
  return JSON.stringify({ declared, dependencies: walk(lock.dependencies, '') });
}

const sha256 = (text) => createHash('sha256').update(text).digest('hex');

export const gitCacheDirs = (cacheDir) => ({ commits: join(cacheDir, 'git', 'commits'), deps: join(cacheDir, 'git', 'deps') });

const LAST_USED = '.last-used';
const markUsed = (dir) => {
  const file = join(dir, LAST_USED);
  const now = new Date();
  try {
    utimesSync(file, now, now);
  } catch {
    writeFileSync(file, '');
  }
};

/** Run a command, its output kept for an error message. Resolves to { code, stderr }, never rejects. */
function run(command, args, options) {
  return new Promise((resolvePromise) => {
    let stderr = '';
    const child = spawn(command, args, { ...options, stdio: ['ignore', 'ignore', 'pipe'] });
    child.stderr.on('data', (d) => { stderr += d; });
    child.on('error', (err) => resolvePromise({ code: -1, stderr: err.message }));
    child.on('close', (code) => resolvePromise({ code, stderr }));
  });
}

/** The paths of a commit's tree its package ships (shipped-files.js), with its manifest and lockfile. */
function shippedPaths(repo, sha) {
  const manifest = fileAt(repo, sha, 'package.json');
  let files = null;
  try { files = JSON.parse(manifest ?? 'null')?.files ?? null; } catch { /* no manifest to read */ }
  const tree = (gitText(['-C', repo.dir, 'ls-tree', '-r', '--name-only', sha]) ?? '').split('\n').filter(Boolean);
  return tree.filter((p) => ['package.json', 'package-lock.json', 'npm-shrinkwrap.json'].includes(p) || isInstalledPath(p, files));
}

/** Extracted once by `git archive`, which writes nothing to the repository (export-ignore applies, as to a tarball). */
async function ensureCommitFiles(repo, sha, { cacheDir, reinstall, log }) {
  const dir = join(gitCacheDirs(cacheDir).commits, sha);
  const done = join(dir, '.mdb-commit.json');
  if (reinstall) rmSync(dir, { recursive: true, force: true });
  if (existsSync(done)) return dir;
  log(`extracting commit ${sha.slice(0, SHORT)} of ${repo.dir} into ${dir} (first use)`);
  await fillIntoPlace(dir, async (tmp) => {
    const archive = (paths = []) => run('sh', ['-c', 'r=$1 c=$2 d=$3; shift 3; git -C "$r" archive --format=tar "$c" -- "$@" | tar -x -C "$d"', 'sh', repo.dir, sha, tmp, ...paths],
      { env: { ...process.env, GIT_OPTIONAL_LOCKS: '0', GIT_TERMINAL_PROMPT: '0' } });
    let r = await archive();
    // A clone that lacks a file the package does not ship (a mirror without its largest test data):
    // what the package ships, its manifest and its lockfile are enough to install and run it.
    const shipped = r.code !== 0 ? shippedPaths(repo, sha) : [];
    if (shipped.length) {
      log(`commit ${sha.slice(0, SHORT)}: ${r.stderr.trim().split('\n')[0]}: extracting the ${shipped.length} files its package ships`);
      rmSync(tmp, { recursive: true, force: true });
      mkdirSync(tmp, { recursive: true });
      r = await archive(shipped);
    }
    if (r.code !== 0) throw installError(`cannot extract commit ${sha.slice(0, SHORT)} of ${repo.dir}: ${r.stderr.trim().split('\n').pop() || `exit ${r.code}`}`, 'check that git archive works on that repository');
    writeFileSync(join(tmp, '.mdb-commit.json'), JSON.stringify({ repository: repo.dir, commit: sha, extractedAt: new Date().toISOString() }, null, 2) + '\n');
  });
  return dir;
}

/** Installed once per distinct productionTree, scripts off; returns the install's directory. */
async function ensureDependencies(label, sha, { manifest, lockText, lockName }, { cacheDir, reinstall, log, npm }) {
  const key = sha256(productionTree(manifest, lockText ? JSON.parse(lockText) : null)).slice(0, 16);
  const dir = join(gitCacheDirs(cacheDir).deps, key);
  if (reinstall) rmSync(dir, { recursive: true, force: true });
  if (existsSync(join(dir, '.installed.json'))) return dir;
  log(`installing the production dependencies of ${label} into ${dir} (npm ${lockText ? 'ci' : 'install'}; first use of this dependency tree)`);
  const started = Date.now();
  await fillIntoPlace(dir, async (tmp) => {
    const { scripts, ...rest } = manifest;
    writeFileSync(join(tmp, 'package.json'), JSON.stringify(rest, null, 2) + '\n');
    if (lockText) writeFileSync(join(tmp, lockName), lockText);
    const common = ['--omit=dev', '--ignore-scripts', '--prefer-offline', '--no-audit', '--no-fund', '--loglevel=error'];
    const r = await npm(lockText ? ['ci', ...common] : ['install', '--no-package-lock', ...common], { cwd: tmp });
    if (r.code !== 0) {
      throw installError(`cannot install the dependencies of ${label} (commit ${sha.slice(0, SHORT)}): ${npmReason(r)}`,
        `check that \`npm ${lockText ? 'ci' : 'install'} --omit=dev\` works in a checkout of that commit`);
    }
    mkdirSync(join(tmp, 'node_modules'), { recursive: true }); // a commit with no dependencies
    writeFileSync(join(tmp, '.installed.json'), JSON.stringify({ from: sha, lockfile: lockName ?? null, installedAt: new Date().toISOString() }, null, 2) + '\n');
  });
  log(`installed the dependencies of ${label} in ${((Date.now() - started) / 1000).toFixed(1)} s`);
  return dir;
}

/** `<commit dir>/node_modules` -> the shared install (replaced when it points elsewhere). */
function linkDependencies(commitDir, depsDir) {
  const link = join(commitDir, 'node_modules');
  const want = join(depsDir, 'node_modules');
  let current = null;
  try { current = readlinkSync(link); } catch { /* none yet */ }
  if (current === want) return;
  if (current !== null) unlinkSync(link);
  else if (existsSync(link)) throw usageError(`${commitDir} holds a node_modules directory of its own`, `remove ${commitDir} and run again`);
  symlinkSync(want, link, 'dir');
}

/** `dir`: a checkout the local-checkout loader can load; `cacheEntries`: the cache directories the row uses. */
export async function prepareGitCheckout(spec, { cacheDir = defaultCacheDir(), reinstall = false, log = (l) => process.stderr.write(`${l}\n`), npm = runNpm } = {}) {
  const parsed = assertGitSpec(spec);
  const repo = openRepository(spec, parsed.repo);
  const sha = resolveCommit(spec, repo, parsed.ref);
  const short = sha.slice(0, SHORT);
  const manifestText = fileAt(repo, sha, 'package.json');
  if (manifestText === null) throw usageError(`${spec}: commit ${short} of ${repo.dir} has no package.json at its root`, 'point git: at the driver\'s repository');
  const manifest = parseJson(manifestText, `package.json of commit ${short}`);
  const pkg = manifest.name;
  if (parsed.package && pkg !== parsed.package) {
    throw usageError(`${spec}: commit ${short} of ${repo.dir} holds '${pkg}', not ${parsed.package}`,
      GIT_PACKAGES.includes(pkg) ? `write ${pkg}@git:${parsed.repo}#${parsed.ref}` : 'point it at a repository of that driver');
  }
  if (!GIT_PACKAGES.includes(pkg)) {
    throw usageError(`${spec}: commit ${short} of ${repo.dir} holds '${pkg ?? 'a package with no name'}', which is not a driver the harness knows (${GIT_PACKAGES.join(', ')})`,
      'for another driver, write an adapter module (docs/comparing.md, "Custom adapters")');
  }
  const version = manifest.version ?? '0.0.0';
  const label = `${pkg}@${version}+${short}`;
  let lockName = null;
  let lockText = null;
  for (const name of ['npm-shrinkwrap.json', 'package-lock.json']) {
    lockText = fileAt(repo, sha, name);
    if (lockText !== null) { lockName = name; break; }
  }
  if (lockText !== null) parseJson(lockText, `${lockName} of commit ${short}`);
  const options = { cacheDir, reinstall, log, npm };
  const dir = await ensureCommitFiles(repo, sha, options);
  const depsDir = await ensureDependencies(label, sha, { manifest, lockText, lockName }, options);
  linkDependencies(dir, depsDir);
  const missing = missingModules(dir).map(describeMissing);
  if (missing.length) {
    throw installError(`${label}: its dependencies installed without ${missing.slice(0, 3).join(', ')}${missing.length > 3 ? ', …' : ''}`,
      `run again with --reinstall; if it persists, the commit's package.json does not declare what it uses`);
  }
  markUsed(dir);
  markUsed(depsDir);
  return { package: pkg, version, commit: sha, repository: repo.dir, ref: parsed.ref, dir, label, cacheEntries: [dir, depsDir] };
}
