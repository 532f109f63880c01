// Finding a program by name in a list of directories, as a shell's PATH search does.
import { accessSync, constants } from 'node:fs';
import { delimiter, join } from 'node:path';

/** The directories a PATH value names, in order. */
export const pathDirs = (path) => (path ?? '').split(delimiter).filter(Boolean);

/** The first executable file named one of `names` (in their order of preference) in `dirs`, else null. */
export function findExecutable(names, dirs) {
  for (const name of names) {
    for (const dir of dirs) {
      const file = join(dir, name);
      try {
        accessSync(file, constants.X_OK);
        return file;
      } catch { /* keep looking */ }
    }
  }
  return null;
}
