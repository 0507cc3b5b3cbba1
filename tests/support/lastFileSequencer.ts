import { BaseSequencer, type TestSpecification } from "vitest/node";

/** The e2e file that reads the whole run's backend logs: it must run after every other e2e file. */
export const LAST_E2E_FILE = "tests/e2e/backendLogPrivacy.test.ts";

/**
 * The e2e file whose story starts before the agent verified sam (issue 27): other files grant the
 * agent verifications on the shared backend, which last 30 minutes, so it runs first.
 */
export const FIRST_E2E_FILE = "tests/e2e/callerVerification.test.ts";

/** vitest's own order (failed first, then slowest first), with FIRST_E2E_FILE first and LAST_E2E_FILE last. */
export class LastFileSequencer extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const sorted = await super.sort(files);
    const is = (file: string) => (spec: TestSpecification) => spec.moduleId.replaceAll("\\", "/").endsWith(file);
    const first = is(FIRST_E2E_FILE);
    const last = is(LAST_E2E_FILE);
    return [...sorted.filter(first), ...sorted.filter((spec) => !first(spec) && !last(spec)), ...sorted.filter(last)];
  }
}
