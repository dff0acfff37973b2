// Who may read the embedded database's files: its owner only (docs/operations.md, "The data directory").
//
// PostgreSQL keeps its data directory at 0700 and its files at 0600. PGlite's first start copies the files
// initdb made with mode 0666, whatever the umask, and writes its relation cache files (pg_internal.init)
// through the umask: any local user could read or change the database. The directory is created 0700, and
// everything in it loses its group and other bits before and after PGlite opens it.
import fs from "node:fs";
import path from "node:path";

/** Creates the data directory (and missing parents) readable by its owner only. */
export function createDataDir(dir: string): void {
  fs.mkdirSync(dir, { recursive: true, mode: 0o700 });
}

/**
 * Removes the group and other permission bits from `dir` and everything under it (symbolic links are
 * left alone and not followed). Returns how many entries it changed. Throws a message saying what to run
 * when an entry cannot be changed (it belongs to another user).
 */
export function tightenDataDir(dir: string): number {
  let changed = 0;
  const visit = (p: string) => {
    const stat = fs.lstatSync(p);
    if (!stat.isDirectory() && !stat.isFile()) return;
    if ((stat.mode & 0o077) !== 0) {
      try {
        fs.chmodSync(p, stat.mode & 0o700);
      } catch (error) {
        const mode = (stat.mode & 0o777).toString(8).padStart(4, "0");
        throw new Error(
          `${p} in the embedded database's folder is open to other users (mode ${mode}) and could not be restricted (${(error as NodeJS.ErrnoException).code ?? String(error)}). ` +
            `As the folder's owner, run: chmod -R go-rwx ${dir}`,
          { cause: error },
        );
      }
      changed++;
    }
    if (stat.isDirectory()) for (const name of fs.readdirSync(p)) visit(path.join(p, name));
  };
  visit(dir);
  return changed;
}
