// What a ci-driver run says once judged: the verdict and the moved functions on stdout, the job
// summary, the artifact a reviewer downloads, and the pull request's comment.
import { appendFileSync, writeFileSync } from 'node:fs';
import { basename, join, resolve } from 'node:path';
import { NOT_THE_DRIVER, columnsText, commentHeadline, functionPlace, gateCounter, gateRows, movedColumns, renderGateComment, signedInt } from './reporting/gate-comment.js';
import { renderResultsMarkdown } from './reporting/markdown.js';
import { copyArtifact } from './results/artifact.js';

/** In a GitHub Actions run, the run it is uploaded from too: action.yml names the artifact after its directory. */
function artifactForComment(copied, given, env) {
  const name = basename(copied.dir);
  const run = env.GITHUB_RUN_ID && env.GITHUB_REPOSITORY ? { id: env.GITHUB_RUN_ID, repository: env.GITHUB_REPOSITORY } : null;
  return { name, run, path: join(run ? name : given, basename(copied.results)) };
}

export function reportGate({ results, json, rows, bytes, collected, wallMs, profiles, verdict, accept, accepted, out, asked, env, stdout, stderr }) {
  const say = (line) => { if (!asked.quiet) stderr.write(`${line}\n`); };
  const { perOp } = gateCounter(results);
  stdout.write(`\n${verdict.lines.join('\n').replace(/\*\*/g, '')}\n`);
  for (const [bench, list] of Object.entries(profiles.functions)) {
    stdout.write(`${bench}, the functions whose ${perOp} changed most: ${list.map((f) => `${f.name}${functionPlace(f)} ${signedInt(f.deltaPerOp)}`).join(', ')}\n`);
    if (profiles.driverSharePct[bench] < 50) stdout.write(`  ${NOT_THE_DRIVER} (docs/ci.md#when-a-bench-moves-without-the-drivers-code)\n`);
  }
  for (const [bench, figures] of Object.entries(movedColumns(results, { threshold: asked.threshold, ...rows }))) stdout.write(`${bench}, beside it: ${columnsText(figures)}\n`);
  if (accepted) stdout.write(`accepted: ${accept.by} applied the label ${accept.label}: the regression is reported and the gate passes\n`);
  const summary = asked.summary ?? env.GITHUB_STEP_SUMMARY;
  if (summary) {
    const headline = commentHeadline(results, gateRows(results, { threshold: asked.threshold, ...rows }), { verdict, threshold: asked.threshold, accept });
    appendFileSync(summary, `${[`### mysql-driver-bench: ${perOp}, head against base`, '', headline, '', ...verdict.lines, '', renderResultsMarkdown(results)].join('\n')}\n`);
    say(`the verdict and the report were added to ${resolve(summary)}`);
  }
  const copied = asked.artifact ? copyArtifact({ out, json, results, dir: resolve(asked.artifact), also: [bytes.results && bytes.file, collected.results && collected.file].filter(Boolean) }) : null;
  const what = ['the results', ...(copied?.profiles ? [`${copied.profiles} rows' profiles`] : []), ...(copied?.replay ? ['the replay sets'] : [])];
  if (copied) say(`${what.slice(0, -1).join(', ')}${what.length > 1 ? ' and ' : ''}${what.at(-1)} were copied to ${copied.dir}`);
  if (asked.comment) {
    const artifact = copied && artifactForComment(copied, asked.artifact, env);
    writeFileSync(asked.comment, renderGateComment(results, { verdict, threshold: asked.threshold, ...rows, wallMs, artifact, profiles, accept, docs: asked.docsUrl }));
    say(`the pull request's comment was written to ${resolve(asked.comment)}`);
  }
}

