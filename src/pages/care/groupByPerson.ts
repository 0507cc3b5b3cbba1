import type { Subscriber } from "../../resources/subscribers";

/** One person among search results: their accounts that matched, in the order the search ranked them. */
export interface PersonResult {
  personId: string;
  /** The best-ranked account: its name and email stand for the person, and its 360 opens. */
  first: Subscriber;
  accounts: Subscriber[];
}

/**
 * Search results per person: accounts of one holder together, under the place of the best-ranked
 * one (the search ranks accounts; a person with two accounts is still one row to an agent).
 */
export function groupByPerson(accounts: readonly Subscriber[]): PersonResult[] {
  const people = new Map<string, PersonResult>();
  for (const account of accounts) {
    const person = people.get(account.personId);
    if (person) person.accounts.push(account);
    else people.set(account.personId, { personId: account.personId, first: account, accounts: [account] });
  }
  return [...people.values()];
}
