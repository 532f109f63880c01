// Which driver the Δ column compares against.
import { usageError } from '../common/errors.js';

export const DEFAULT_BASELINE = 'mysql';

/**
 * The baseline's row label and why: --baseline (a row label, or a driver as written in --drivers:
 * `mysql2@latest` means that release's row), else `mysql` when it is run, else the first driver.
 * `specs`: --drivers as written (with `floor` by --floor); `drivers`: the loaded ones, in that order.
 */
export function resolveBaseline({ explicit, specs, drivers }) {
  const labels = drivers.map((d) => d.name);
  if (explicit !== undefined) {
    const asWritten = specs.indexOf(explicit);
    const name = asWritten >= 0 ? labels[asWritten] : explicit;
    if (!labels.includes(name)) {
      throw usageError(`baseline '${explicit}' is not among the drivers run (${labels.join(', ')})`,
        'add it to --drivers, choose another with --baseline, or leave --baseline out');
    }
    return { name, reason: 'chosen with --baseline' };
  }
  if (labels.includes(DEFAULT_BASELINE)) return { name: DEFAULT_BASELINE, reason: `the default: ${DEFAULT_BASELINE} is run` };
  return { name: labels[0], reason: `first driver listed; ${DEFAULT_BASELINE} is not run` };
}

/** The progress line naming the baseline, e.g. `baseline: mysql2 (first driver listed; mysql is not run)`. */
export const describeBaseline = ({ name, reason }) => `baseline: ${name} (${reason})`;
