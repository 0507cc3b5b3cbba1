import { spawn, type ChildProcess } from "node:child_process";

export const EMULATOR_HOST = process.env.FIREBASE_AUTH_EMULATOR_HOST || "127.0.0.1:9099";
export const PROJECT_ID = "demo-att-portal";

export async function emulatorIsUp(host = EMULATOR_HOST): Promise<boolean> {
  try {
    const res = await fetch(`http://${host}/`, { signal: AbortSignal.timeout(1000) });
    return res.ok;
  } catch {
    return false;
  }
}

/**
 * Starts the Firebase Auth emulator (firebase-tools from node_modules) unless one already answers,
 * and resolves once it is ready. The returned stop() ends only the process this call started.
 */
export async function ensureAuthEmulator(
  options: { log?: (line: string) => void; importDir?: string; exportDir?: string } = {},
) {
  if (await emulatorIsUp()) return { started: false, stop: async () => {} };
  const args = ["firebase", "emulators:start", "--only", "auth", "--project", PROJECT_ID];
  if (options.importDir) args.push("--import", options.importDir);
  if (options.exportDir) args.push("--export-on-exit", options.exportDir);
  const child: ChildProcess = spawn("npx", args, {
    stdio: ["ignore", "pipe", "pipe"],
    detached: true,
    env: { ...process.env, FORCE_COLOR: "0" },
  });
  const output: string[] = [];
  const collect = (chunk: Buffer) => {
    const text = chunk.toString();
    output.push(text);
    options.log?.(text);
  };
  child.stdout!.on("data", collect);
  child.stderr!.on("data", collect);
  const deadline = Date.now() + 90_000;
  while (!(await emulatorIsUp())) {
    if (child.exitCode !== null) throw new Error(`The Auth emulator exited (${child.exitCode}):\n${output.join("")}`);
    if (Date.now() > deadline) {
      killGroup(child.pid!, "SIGTERM");
      throw new Error(`The Auth emulator did not start within 90 s:\n${output.join("")}`);
    }
    await new Promise((r) => setTimeout(r, 250));
  }
  return {
    started: true,
    stop: () =>
      new Promise<void>((resolve) => {
        // Ended by a signal, a child has no exit code but a signal code: either means it is gone.
        const running = () => child.exitCode === null && child.signalCode === null;
        if (!running()) return resolve();
        child.once("exit", () => resolve());
        killGroup(child.pid!, "SIGINT"); // SIGINT lets --export-on-exit write its files
        setTimeout(() => running() && killGroup(child.pid!, "SIGKILL"), 15_000).unref();
      }),
  };
}

/** Signals the emulator's process group; a group already gone (its last process just exited) is no error. */
function killGroup(pid: number, signal: NodeJS.Signals) {
  try {
    process.kill(-pid, signal);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== "ESRCH") throw error;
  }
}
