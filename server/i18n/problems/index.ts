import { httpWords } from "./http";
import { engineWords } from "./engine";
import { libWords } from "./lib";
import { routesWords } from "./routes";
import { authWords } from "./auth";
import { genericWords } from "./generic";

/**
 * Every sentence the server writes to a client, by area (one file each, English and Spanish side by
 * side so neither can be forgotten). Keys are "area.what".
 */
export const problemWords = {
  ...httpWords,
  ...engineWords,
  ...libWords,
  ...routesWords,
  ...authWords,
  ...genericWords,
};
