import { resources } from "../resources";
import { addMessages } from ".";

let added = false;

/** Merges every declaration's own labels into the dictionaries, once (the portal calls it at start). */
export function addResourceMessages(): void {
  if (added) return;
  added = true;
  for (const resource of resources) if (resource.messages) addMessages(resource.messages);
}
