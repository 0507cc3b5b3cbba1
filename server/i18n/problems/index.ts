import { httpWords } from "./http";
import { carePinWords } from "./carePin";

/**
 * Every sentence the server writes to a client, by area (one file each, English and Spanish side by
 * side so neither can be forgotten). Keys are "area.what".
 */
export const problemWords = {
  ...httpWords,
  ...carePinWords,
};
