import { BaseSequencer, type TestSpecification } from "vitest/node";

/** The e2e file that reads the whole run's backend logs: it must run after every other e2e file. */
export const LAST_E2E_FILE = "tests/e2e/backendLogPrivacy.test.ts";

/** vitest's own order (failed first, then slowest first), with LAST_E2E_FILE moved to the end. */
export class LastFileSequencer extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const sorted = await super.sort(files);
    const last = (spec: TestSpecification) => spec.moduleId.replaceAll("\\", "/").endsWith(LAST_E2E_FILE);
    return [...sorted.filter((spec) => !last(spec)), ...sorted.filter(last)];
  }
}
