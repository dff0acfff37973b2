// The single-process lock on a PGlite data directory.
//
// PGlite is an in-process database: two processes opening one data directory would corrupt it. The
// lock file records the owner's pid, its start time (field 22 of /proc/<pid>/stat) and a random
// token. A later opener is refused only while that very process is still running: a dead pid, a
// zombie, a process already tearing itself down after `kill -9`, and an unrelated process that
// reuses the pid (different start time) all leave a stale file that is taken over at once.
import crypto from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import { createDataDir } from "./data-dir-modes.ts";

export const LOCK_FILE_NAME = "reprise.pid";

export interface LockOwner {
  pid: number;
  /** Start time of the process in clock ticks since boot; null where /proc is unavailable. */
  start: number | null;
  token: string;
}

/** Takes the lock on `dir` (creating it, 0700) or throws a message saying who holds it; returns the release. */
export function lockDataDir(dir: string): () => void {
  createDataDir(dir);
  const lockFile = path.join(dir, LOCK_FILE_NAME);
  const owner: LockOwner = { pid: process.pid, start: processStart(process.pid), token: crypto.randomUUID() };
  const content = JSON.stringify(owner);
  for (let attempt = 0; ; attempt++) {
    try {
      fs.writeFileSync(lockFile, content, { flag: "wx", mode: 0o600 });
      break;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== "EEXIST" || attempt >= 5) throw error;
    }
    const holder = readOwner(lockFile);
    if (holder && holder.pid !== process.pid && isLiveOwner(holder)) {
      throw new Error(
        `The embedded database in ${dir} is in use by process ${holder.pid}. Stop that process first, or use PostgreSQL (DATABASE_URL) to run several processes.`,
      );
    }
    // Stale (or our own from an earlier open in this process): take it over.
    fs.rmSync(lockFile, { force: true });
  }
  const release = () => {
    try {
      if (readOwner(lockFile)?.token === owner.token) fs.unlinkSync(lockFile);
    } catch {
      /* already gone */
    }
  };
  process.once("exit", release);
  return release;
}

/** The recorded owner, or null for a missing, empty or unreadable file (a crash mid-write). */
export function readOwner(lockFile: string): LockOwner | null {
  let text: string;
  try {
    text = fs.readFileSync(lockFile, "utf8");
  } catch {
    return null;
  }
  try {
    const parsed = JSON.parse(text) as Partial<LockOwner>;
    if (typeof parsed.pid !== "number" || !Number.isInteger(parsed.pid) || parsed.pid <= 0) return null;
    return { pid: parsed.pid, start: typeof parsed.start === "number" ? parsed.start : null, token: String(parsed.token ?? "") };
  } catch {
    // A file from an older version held only the pid: without a start time, it cannot prove its owner.
    const pid = Number(text.trim());
    return Number.isInteger(pid) && pid > 0 ? { pid, start: null, token: "" } : null;
  }
}

/** Whether the process recorded in the lock file is that same process and still running. */
export function isLiveOwner(owner: LockOwner): boolean {
  const stat = readStat(owner.pid);
  if (stat === undefined) return isAlive(owner.pid); // no /proc (macOS): the pid is all there is
  if (stat === null) return false; // no such process
  // Zombie or dead, or exiting (PF_EXITING): a process killed with SIGKILL runs no more code.
  if (stat.state === "Z" || stat.state === "X" || stat.state === "x" || (stat.flags & 0x4) !== 0) return false;
  return owner.start !== null && stat.start === owner.start;
}

interface ProcStat {
  state: string;
  flags: number;
  start: number;
}

/** /proc/<pid>/stat fields we need; null when the process does not exist, undefined without /proc. */
function readStat(pid: number): ProcStat | null | undefined {
  let text: string;
  try {
    text = fs.readFileSync(`/proc/${pid}/stat`, "utf8");
  } catch (error) {
    if (!fs.existsSync("/proc/self/stat")) return undefined;
    if ((error as NodeJS.ErrnoException).code === "ENOENT" || (error as NodeJS.ErrnoException).code === "ESRCH") return null;
    return undefined;
  }
  // The command name (field 2) is in parentheses and may itself contain spaces or parentheses.
  const fields = text.slice(text.lastIndexOf(")") + 2).split(" ");
  // fields[0] is field 3 (state), fields[6] field 9 (flags), fields[19] field 22 (starttime).
  return { state: fields[0] ?? "", flags: Number(fields[6]), start: Number(fields[19]) };
}

export function processStart(pid: number): number | null {
  const stat = readStat(pid);
  return stat ? stat.start : null;
}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === "EPERM";
  }
}
