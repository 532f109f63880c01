// The hidden markers of a gate's pull-request comment, with no import: scripts/pr-comment.js reads them
// in the action's comment mode, which installs nothing.
export const GATE_COMMENT_MARKER = '<!-- mysql-driver-bench gate -->';
// Held by a comment that says nothing moved: with `comment: on-change` it is posted only over an earlier one.
export const NOTHING_MOVED_MARKER = '<!-- mysql-driver-bench: nothing moved -->';
