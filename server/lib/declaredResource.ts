// The one definition lives with the declarations (src/resources/define.ts); server code imports it from here.
export type { DeclaredResource } from "#resources/define";
