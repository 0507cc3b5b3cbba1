import { useContext } from "react";
import places from "virtual:subscriber-places";
import { getLocale, translate as t } from "../../i18n";
import { can } from "../../resources/access";
import type { Destination } from "../../resources/define";
import type { SessionUser } from "../../providers/session";
import type { Navigate } from "../../components/PlainLink";
import { TaskList, type Task } from "./TaskList";
import { HeldAccountKinds } from "./heldAccountKinds";

export interface DestinationTasksProps {
  place: Destination;
  user: SessionUser | undefined;
  navigate: Navigate;
  extra?: readonly Task[];
  /** Resources the page draws itself (the shop's plans). */
  drawn?: readonly string[];
}

/**
 * What a destination lists besides its own cards: the resources whose declaration places them there
 * (`subscriberPlace`), each as a task with one sentence, so a product owner's new resource appears
 * where subscribers look without a new page (if it is for their kind of account: HeldAccountKinds). Without the router, Refine or the declarations
 * themselves: what it needs of them is taken at build time (`virtual:subscriber-places`), so the light
 * pages on a phone draw it without loading zod and every declaration.
 */
export default function DestinationTasks({ place, user, navigate, extra = [], drawn = [] }: DestinationTasksProps) {
  const locale = getLocale();
  const held = useContext(HeldAccountKinds);
  const declared: Task[] = places
    .filter((r) => r.place === place && !drawn.includes(r.name) && can(user, r, "list"))
    .filter((r) => !r.accountType || !held || held.includes(r.accountType))
    .map((r) => ({
      key: r.name,
      title: t(`subscriber.more.${r.name}.title`, undefined, r.labelWords[locale] ?? r.labelWords.en ?? t(r.label)),
      about: t(`subscriber.more.${r.name}.about`, undefined, ""),
      to: `/${r.name}`,
    }));
  const tasks = [...extra, ...declared];
  if (!tasks.length) return null;
  return <TaskList title={t("subscriber.more.title")} tasks={tasks} navigate={navigate} />;
}
