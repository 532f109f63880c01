// How a bench runs on a driver: the bench's own plan, or for the floor reference client the
// plain text statement with a check of the raw reply (it builds no rows).
import { withRowShape } from '../../drivers/variants.js';

export const FLOOR_BENCH_NOTE = 'the floor reference client runs only benches with a raw-reply check (do, select_100_cols, select_1000_rows)';

export function planFor(bench, driver, context) {
  if (driver.capabilities?.floor) {
    if (!bench.floor) return { unsupported: FLOOR_BENCH_NOTE };
    return { ...bench.plan(driver, context), protocol: 'text', check: bench.floor.check };
  }
  const plan = bench.plan(driver, context);
  // bun-sql prepares a statement exactly when it has parameters (the server's counters show it): no
  // text path with parameters, no binary path without.
  if (driver.capabilities?.preparesIfParams && !plan.unsupported && !plan.unavailable) {
    const params = /\?/.test(bench.sql ?? '');
    if (params && /^text/.test(plan.protocol ?? '')) return { unsupported: 'it prepares every statement with parameters: no text protocol with parameters' };
    if (!params && /^binary/.test(plan.protocol ?? '')) return { unsupported: 'it prepares only statements with parameters: one without runs as text' };
  }
  return plan;
}

/** One line when every plan is `unsupported` on every driver (e.g. old mysql releases and execute); a plan that throws without context counts as runnable. */
export function nothingRunnable(benches, drivers) {
  const reasons = [];
  for (const bench of benches) {
    for (const driver of drivers) {
      let plan;
      try {
        plan = planFor(bench, driver, { options: {} });
      } catch {
        return null;
      }
      if (!plan?.unsupported) return null;
      reasons.push(`${bench.name} on ${driver.name}: ${plan.unsupported}`);
    }
  }
  if (!reasons.length) return null;
  const rows = drivers.length > 3 ? `${drivers[0].name} … ${drivers.at(-1).name} (${drivers.length} rows)` : drivers.map((d) => d.name).join(', ');
  return `no row of this run can run: ${benches.map((b) => b.name).join(', ')} on ${rows}; ${reasons[0]}`;
}

export const checkFor = (plan, bench) => plan.check ?? bench.check;

/** Runs a bench's set-up; the context its plans see, with `setupData` when the set-up shares something. */
export async function setUpBench(bench, admin, context) {
  const setup = await bench.setup?.(admin, context);
  return setup?.shared === undefined ? context : { ...context, setupData: setup.shared };
}

export function notApplicableReason(plan) {
  if (plan?.unsupported) return `not supported by driver: ${plan.unsupported}`;
  if (plan?.unavailable) return plan.unavailable;
  return null;
}

export const targetFor = (plan, target) => (plan.connectOptions ? { ...target, driverOptions: plan.connectOptions } : target);

/** What the op of a plan with `connects: true` gets instead of an open connection. */
export const connectorFor = (plan, driver, target) => {
  const t = targetFor(plan, target);
  return { connect: () => driver.connect(t) };
};

/** A bench's plan and check, shaped for the driver's rows; { notApplicable } when the driver cannot run it. */
export function planBench(bench, driver, context) {
  const plan = planFor(bench, driver, context);
  if (plan.unsupported || plan.unavailable) return { notApplicable: { unsupported: plan.unsupported, unavailable: plan.unavailable } };
  return { plan, check: withRowShape(checkFor(plan, bench), driver) };
}
