import { spawn, type ChildProcess } from "node:child_process";

/**
 * Spawns a long-running child in its own process group, so stopping it stops its children too. Its
 * output is this process's, or piped (`pipe`) for the caller to read.
 */
export function startProcess(
  command: string,
  args: string[],
  env: Record<string, string> = {},
  output: "inherit" | "pipe" = "inherit",
): ChildProcess {
  return spawn(command, args, {
    stdio: output === "pipe" ? ["ignore", "pipe", "pipe"] : "inherit",
    detached: true,
    env: { ...process.env, ...env },
  });
}

export function stopProcess(child: ChildProcess, signal: NodeJS.Signals = "SIGTERM"): Promise<void> {
  return new Promise((resolve) => {
    if (child.exitCode !== null || child.signalCode !== null) return resolve();
    child.once("exit", () => resolve());
    try {
      process.kill(-child.pid!, signal);
    } catch {
      resolve();
    }
    setTimeout(() => {
      try {
        process.kill(-child.pid!, "SIGKILL");
      } catch {
        // already gone
      }
    }, 10_000).unref();
  });
}

export async function waitForHttp(url: string, timeoutMs: number, isAlive: () => boolean = () => true): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (!isAlive()) throw new Error(`The process behind ${url} exited before it answered.`);
    try {
      const res = await fetch(url, { signal: AbortSignal.timeout(1000) });
      if (res.ok) return;
    } catch {
      // not up yet
    }
    await new Promise((r) => setTimeout(r, 250));
  }
  throw new Error(`${url} did not answer within ${timeoutMs / 1000} s`);
}
