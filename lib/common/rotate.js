/** Driver order for step i: rotated so no driver always goes first or last. */
export function rotate(list, by) {
  const n = list.length;
  if (n === 0) return [];
  const k = ((by % n) + n) % n;
  return [...list.slice(k), ...list.slice(0, k)];
}
