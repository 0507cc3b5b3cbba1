import { config } from "zod";

// Zod compiles object parsers with `new Function` unless told not to. The portal's policy forbids
// eval, and even zod's probe for it is reported as a violation: imported first by the modules that
// bring zod into the browser (App.tsx), before any schema is built.
config({ jitless: true });
