// A bench × driver row's key, the same wherever rows of runs are matched: by bench name and driver label.

/** The key of a bench's row for one driver (label). */
export const rowKey = (bench, driver) => `${bench}\0${driver}`;

/** A row key's [bench, driver]. */
export const splitRowKey = (key) => key.split('\0');
