// The bench contract: what a module in benchs/ exports (docs/development.md, "The two contracts"). The
// machinery reads benches only through these fields: a bench that needs more says so in its own module.
// required
//   name            stable name, used in results and on the command line ([a-z0-9_]+)
//   title, sql      what it measures, and its statement(s), for the table and `list`
//   plan(driver, ctx) -> { protocol, op(conn) -> () => Promise, check?, pool?, windowStats?(), summarize?(latencies),
//                   connectOptions?, init?(conn), connects? } or { unsupported: reason } (the driver lacks it) or
//                   { unavailable: reason } (the run lacks what it needs); runs in the driver's process
//   check(result)   throws (benchs/_check.js) when a driver returned wrong data; a plan may bring its own
// optional, run in the harness through its own connection, between windows
//   setup(admin, ctx) -> { shared }?   beforeWindow(admin, ctx)   verify(admin, ctx, windowStats)
//   note(ctx) -> text                   statementsPerOp (number)   floor: { check(reply) } (the floor client)
//   preflight(admin, ctx)   once per run before anything is measured (not under --replay): a UserError stops the run
// optional, what a special bench brings along
//   options: [{ flags, description, parse(value), key, default, record? }]   command-line options, handed to
//                   every bench as ctx.options[key]; `record`: saved in the results' settings when the bench runs
//   probe: { key, run(p) -> figures, failed?(figures) -> boolean, section(results) -> text }   once per run
//                   after the matrix, p = { drivers, target, admin, context, settings, signal, log }; saved as results[key]
//   section(results) -> text   a pure section of the report after the main table ('' when it has nothing)
//   tables(rows, ctx) -> [{ title, head, rows, notes }]   tables of its own under its rows, in every report
//   inDefaultRun: false         run only when named      requires: ['tls']   what the run must provide
//   notReplayable: reason       --replay cannot mean anything for it: its rows are n/a with the reason
//   concurrency: n              its own connections (or pool size and callers), whatever --concurrency says
//   openSchedule: true          --rate may start its operations on a schedule: any caller takes the next one

const isFunction = (v) => typeof v === 'function';
const OPTIONAL_FUNCTIONS = ['preflight', 'setup', 'beforeWindow', 'verify', 'note', 'section', 'tables'];
const REQUIREMENTS = ['tls'];

function optionProblems(options) {
  if (!Array.isArray(options)) return ['`options` must be an array'];
  return options.flatMap((o, i) => {
    const where = `options[${i}]`;
    const problems = [];
    if (typeof o?.flags !== 'string' || !/^--[a-z][a-z0-9-]*( <\w+>)?$/.test(o.flags)) problems.push(`${where}.flags must be a long flag such as '--my-size <n>'`);
    if (typeof o?.description !== 'string') problems.push(`${where}.description must be a string`);
    if (o?.parse !== undefined && !isFunction(o.parse)) problems.push(`${where}.parse must be a function`);
    // commander's name for the flag: --my-size -> mySize
    const attribute = String(o?.flags ?? '').split(' ')[0].replace(/^--/, '').replace(/-([a-z0-9])/g, (_, c) => c.toUpperCase());
    if (o?.key !== attribute) problems.push(`${where}.key must be '${attribute}', the name commander gives ${o?.flags}`);
    return problems;
  });
}

function probeProblems(probe) {
  if (!probe || typeof probe !== 'object') return ['`probe` must be an object'];
  const problems = [];
  if (typeof probe.key !== 'string' || !/^[a-z][A-Za-z0-9]*$/.test(probe.key)) problems.push('probe.key must be a camelCase name (its figures are results[key])');
  if (!isFunction(probe.run)) problems.push('probe.run must be a function');
  if (!isFunction(probe.section)) problems.push('probe.section must be a function');
  if (probe.failed !== undefined && !isFunction(probe.failed)) problems.push('probe.failed must be a function');
  return problems;
}

/** What is wrong with a bench module's export, as a list of sentences (empty when it keeps the contract). */
export function benchContractProblems(bench) {
  if (!bench || typeof bench !== 'object') return ['a bench is an object'];
  const problems = [];
  if (typeof bench.name !== 'string' || !/^[a-z0-9_]+$/.test(bench.name)) problems.push('name must match [a-z0-9_]+');
  for (const field of ['title', 'sql']) if (typeof bench[field] !== 'string' || !bench[field]) problems.push(`${field} must be a non-empty string`);
  if (!isFunction(bench.plan)) problems.push('plan(driver, ctx) must be a function');
  if (!isFunction(bench.check)) problems.push('check(result) must be a function');
  for (const field of OPTIONAL_FUNCTIONS) if (bench[field] !== undefined && !isFunction(bench[field])) problems.push(`${field} must be a function`);
  if (bench.statementsPerOp !== undefined && !(Number.isInteger(bench.statementsPerOp) && bench.statementsPerOp > 0)) problems.push('statementsPerOp must be a whole number');
  if (bench.floor !== undefined && !isFunction(bench.floor?.check)) problems.push('floor.check(reply) must be a function');
  if (bench.inDefaultRun !== undefined && typeof bench.inDefaultRun !== 'boolean') problems.push('inDefaultRun must be a boolean');
  if (bench.concurrency !== undefined && !(Number.isInteger(bench.concurrency) && bench.concurrency > 0)) problems.push('concurrency must be a positive integer');
  if (bench.requires !== undefined && !(Array.isArray(bench.requires) && bench.requires.every((r) => REQUIREMENTS.includes(r)))) {
    problems.push(`requires must be a list of ${REQUIREMENTS.join(', ')}`);
  }
  if (bench.openSchedule !== undefined && typeof bench.openSchedule !== 'boolean') problems.push('openSchedule must be a boolean');
  if (bench.notReplayable !== undefined && (typeof bench.notReplayable !== 'string' || !bench.notReplayable)) problems.push('notReplayable must be a non-empty reason');
  if (bench.options !== undefined) problems.push(...optionProblems(bench.options));
  if (bench.probe !== undefined) problems.push(...probeProblems(bench.probe));
  return problems;
}
