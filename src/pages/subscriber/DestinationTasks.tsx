// First: zod without eval and in the page's language (the light pages load this part alone).
import "../../config/zodInTheBrowser";
import { translate as t } from "../../i18n";
import { resources } from "../../resources";
import { can } from "../../resources/access";
import type { Destination } from "../../resources/define";
import type { SessionUser } from "../../providers/session";
import type { Navigate } from "../../components/PlainLink";
import { TaskList, type Task } from "./TaskList";
import { addResourceMessages } from "../../i18n/resourceMessages";

// The declarations' own words (a declared product's name): the light pages load this file without the portal, which adds them at its start.
addResourceMessages();

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
 * where subscribers look without a new page. Without the router or Refine: the light pages on a
 * phone load it (and the declarations with it) after their first paint.
 */
export default function DestinationTasks({ place, user, navigate, extra = [], drawn = [] }: DestinationTasksProps) {
  const declared: Task[] = resources
    .filter((r) => r.subscriberPlace === place && !drawn.includes(r.name) && can(user, r, "list"))
    .map((r) => ({
      key: r.name,
      title: t(`subscriber.more.${r.name}.title`, undefined, t(r.label)),
      about: t(`subscriber.more.${r.name}.about`, undefined, ""),
      to: `/${r.name}`,
    }));
  const tasks = [...extra, ...declared];
  if (!tasks.length) return null;
  return <TaskList title={t("subscriber.more.title")} tasks={tasks} navigate={navigate} />;
}
