// The grammar of a driver spec as written in --drivers, outside in:
//   [label=]<driver>[:option=value…][~runtime][#tag]
// where <driver> is a built-in name, a release (mysql2@3.9.0), a checkout (mysql2@file:../dir), a
// commit of a git repository (mysql2@git:../dir#ref) or an adapter module's path. Pure: no I/O.

// In a git spec the first '#' names the commit; a repeat's #tag can only follow it.
const GIT_SPEC = /^(?:[A-Za-z_][\w.+-]{0,59}=)?(?:[\w.-]+@)?git:/;

export const isGitSpec = (spec) => GIT_SPEC.test(spec);

/**
 * `mysql2#2`: a second process of the same driver, as a row of its own (an A/A comparison).
 * `mysql2@git:../x#v3.9.0` has no tag (its '#' names the commit); `mysql2@git:../x#v3.9.0#2` has tag 2.
 */
export function splitRepeat(spec) {
  const m = /^(.+?)#([\w.-]{1,20})$/.exec(spec);
  if (!m || (isGitSpec(m[1]) && !m[1].includes('#'))) return { base: spec, tag: null };
  return { base: m[1], tag: m[2] };
}

/** What a row's process loads (a loaded driver's loadSpec, else its name) without a repeat's #tag: one program for a driver and its repeats. */
export const programSpec = (driver) => splitRepeat(driver.loadSpec ?? driver.name).base;

// A label the user gives a row: letters, digits and . _ + - (no '@', ':' or '/', which specs use).
const LABELLED = /^([A-Za-z_][\w.+-]{0,59})=(.+)$/;

/** `head=mysql2@git:.#HEAD` -> { label: 'head', spec: 'mysql2@git:.#HEAD' }; label null when none is given. */
export function splitLabel(spec) {
  const m = LABELLED.exec(spec);
  return m ? { label: m[1], spec: m[2] } : { label: null, spec };
}
