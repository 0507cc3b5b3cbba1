import { beforeEach } from "vitest";
import { describeOpenContexts, enableBrowserTracing } from "../support/browserDiagnostics";

// A failing end-to-end test prints what its browsers were doing (tests/support/browserDiagnostics.ts):
// the rare failure on a loaded machine rarely comes back when the file runs again.
enableBrowserTracing();
beforeEach(({ onTestFailed }) => {
  onTestFailed(async () => {
    const account = await describeOpenContexts();
    if (account) console.error(`What the browsers were doing when the test failed:\n${account}`);
  });
});
