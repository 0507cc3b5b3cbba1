import { resources } from "../resources";
import { addMessages } from ".";
import { addPostedForms } from "./postedText";
import { postedLabelKeys } from "../resources/expressions/declaration";
import type { DeclaredResource } from "../resources/define";

let added = false;

/** Merges every declaration's own labels into the dictionaries, once (the portal calls it at start). */
export function addResourceMessages(): void {
  if (added) return;
  added = true;
  for (const resource of resources) if (resource.messages) addMessages(resource.messages);
  // Then the forms of declared charges, whose English templates those messages hold.
  addPostedForms((resources as readonly DeclaredResource[]).flatMap(postedLabelKeys));
}
