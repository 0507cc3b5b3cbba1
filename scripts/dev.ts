// `npm run dev`: hot reload. Vite on :5173 (proxying /api to the backend), the backend on :8080
// restarting on change (tsx watch), and the Auth emulator.
import { ensureAuthEmulator } from "../tests/support/authEmulator";
import { startProcess, stopProcess } from "./processes";

async function main() {
  const emulator = await ensureAuthEmulator({ importDir: ".data/auth", exportDir: ".data/auth" });
  const server = startProcess("npx", ["tsx", "watch", "--clear-screen=false", "server/main.ts"], {
    APP_MODE: "local",
    STATIC_DIR: "none",
  });
  const vite = startProcess("npx", ["vite", "--host", "127.0.0.1"]);
  const stop = async () => {
    await Promise.all([stopProcess(vite), stopProcess(server)]);
    await emulator.stop();
    process.exit(0);
  };
  process.on("SIGINT", () => void stop());
  process.on("SIGTERM", () => void stop());
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
