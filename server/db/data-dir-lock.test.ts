import { spawn, spawnSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { LOCK_FILE_NAME, lockDataDir, processStart, readOwner } from "./data-dir-lock.ts";

const hasProc = fs.existsSync("/proc/self/stat");

describe("PGlite data directory lock", () => {
  let dir: string;
  let lockFile: string;
  const children: Array<ReturnType<typeof spawn>> = [];

  beforeEach(() => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), "reprise-lock-"));
    lockFile = path.join(dir, LOCK_FILE_NAME);
  });
  afterEach(() => {
    for (const child of children.splice(0)) child.kill("SIGKILL");
    fs.rmSync(dir, { recursive: true, force: true });
  });

  function sleeper() {
    const child = spawn("sleep", ["60"], { stdio: "ignore" });
    children.push(child);
    return child.pid!;
  }

  it("records pid, start time and a token, and release removes only its own file", () => {
    const release = lockDataDir(dir);
    const owner = readOwner(lockFile)!;
    expect(owner.pid).toBe(process.pid);
    if (hasProc) expect(owner.start).toBe(processStart(process.pid));
    expect(owner.token).toMatch(/^[0-9a-f-]{36}$/);
    release();
    expect(fs.existsSync(lockFile)).toBe(false);
  });

  it("takes over the file of a dead process", () => {
    const dead = spawnSync("true").pid;
    fs.writeFileSync(lockFile, JSON.stringify({ pid: dead, start: 1, token: "old" }));
    const release = lockDataDir(dir);
    expect(readOwner(lockFile)!.pid).toBe(process.pid);
    release();
  });

  it.runIf(hasProc)("takes over the file when the pid now belongs to an unrelated process", async () => {
    const pid = sleeper();
    await waitForStart(pid);
    // Same pid, another start time: the pid was reused.
    fs.writeFileSync(lockFile, JSON.stringify({ pid, start: processStart(pid)! - 1, token: "old" }));
    lockDataDir(dir)();
    // A file from an older version records only a pid, so it cannot prove its owner either.
    fs.writeFileSync(lockFile, String(pid));
    lockDataDir(dir)();
    // The parent of this test process is alive and unrelated.
    fs.writeFileSync(lockFile, String(process.ppid));
    lockDataDir(dir)();
  });

  it("takes over an empty or unreadable file (a crash mid-write)", () => {
    fs.writeFileSync(lockFile, "");
    lockDataDir(dir)();
    fs.writeFileSync(lockFile, "{garbage");
    lockDataDir(dir)();
  });

  it("refuses while the recorded process is alive, with a message saying what to do", async () => {
    const pid = sleeper();
    await waitForStart(pid);
    fs.writeFileSync(lockFile, JSON.stringify({ pid, start: processStart(pid), token: "theirs" }));
    expect(() => lockDataDir(dir)).toThrow(`The embedded database in ${dir} is in use by process ${pid}. Stop that process first`);
    expect(readOwner(lockFile)!.token).toBe("theirs");
  });

  it("takes over at once after the owner is killed with SIGKILL", async () => {
    const child = spawn(process.execPath, ["-e", "setInterval(() => {}, 1000)"], { stdio: "ignore" });
    children.push(child);
    const pid = child.pid!;
    await waitForStart(pid);
    fs.writeFileSync(lockFile, JSON.stringify({ pid, start: processStart(pid), token: "killed" }));
    expect(() => lockDataDir(dir)).toThrow(/in use by process/);
    child.kill("SIGKILL");
    await new Promise((resolve) => child.once("exit", resolve));
    const release = lockDataDir(dir);
    expect(readOwner(lockFile)!.pid).toBe(process.pid);
    release();
  });
});

async function waitForStart(pid: number) {
  for (let i = 0; i < 100 && !(hasProc ? processStart(pid) : true); i++) await new Promise((r) => setTimeout(r, 10));
}
