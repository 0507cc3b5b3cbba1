import RightOutlined from "@ant-design/icons-svg/es/asn/RightOutlined";
import { PlainLink, type Navigate } from "../../components/PlainLink";
import { SvgIcon } from "../../components/SvgIcon";
import "./subscriber.css";

/** One thing a person can do from a page: a title, one sentence saying what it does, and where it goes. */
export interface Task {
  key: string;
  title: string;
  about?: string;
  to: string;
}

/** A list of tasks, each a whole-row link (a phone's finger finds it), as carriers' apps list their "Manage" entries. */
export function TaskList({ title, tasks, navigate }: { title: string; tasks: readonly Task[]; navigate: Navigate }) {
  const id = `tasks-${title.replace(/\W+/g, "-").toLowerCase()}`;
  return (
    <section aria-labelledby={id} className="sub-card">
      <h2 id={id} className="sub-card__title">
        {title}
      </h2>
      <ul className="task-list">
        {tasks.map((task) => (
          <li key={task.key}>
            <PlainLink to={task.to} navigate={navigate} className="task-list__item">
              <span className="task-list__text">
                <strong>{task.title}</strong>
                {task.about && <span className="task-list__about">{task.about}</span>}
              </span>
              <SvgIcon icon={RightOutlined} />
            </PlainLink>
          </li>
        ))}
      </ul>
    </section>
  );
}
