import { translate as t } from "../../i18n";
import { PlainLink, type Navigate } from "../PlainLink";
import { SvgIcon } from "../SvgIcon";
import { DESTINATION_SPECS, destinationOf } from "./destinations";
import "./subscriberTabBar.css";

/**
 * The subscriber's five destinations as a bottom tab bar on a phone. Plain React and CSS, so the
 * light home (before antd loads) and the portal draw the same bar.
 */
export function SubscriberTabBar({ pathname, navigate }: { pathname: string; navigate: Navigate }) {
  const current = destinationOf(pathname);
  return (
    <nav className="tab-bar" aria-label={t("destinations.label")}>
      {DESTINATION_SPECS.map((d) => (
        <PlainLink
          key={d.key}
          to={d.path}
          navigate={navigate}
          className="tab-bar__tab"
          aria-current={d.key === current ? "page" : undefined}
        >
          <span className="tab-bar__icon">
            <SvgIcon icon={d.icon} />
          </span>
          <span className="tab-bar__label">{t(d.label)}</span>
        </PlainLink>
      ))}
    </nav>
  );
}
