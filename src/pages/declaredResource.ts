// The one definition lives with the declarations (src/resources/define.ts); the generic pages import it from here.
export type { DeclaredResource } from "../resources/define";
