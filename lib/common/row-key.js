// A bench × driver row's key, the same wherever rows of runs are matched: by bench name and driver label.
export const rowKey = (bench, driver) => `${bench}\0${driver}`;

export const splitRowKey = (key) => key.split('\0');
