import type { ReactNode } from "react";
import { translate as t } from "../../i18n";
import type { SessionUser } from "../../providers/session";
import type { Navigate } from "../../components/PlainLink";
import { TaskList, type Task } from "./TaskList";
import { usePageDrawn } from "../home/pageDrawn";
import "./subscriber.css";

/** What Account lists under More besides the declared resources, in the reader's language. */
export const accountMore = (): Task[] => [
  {
    key: "device-claims",
    title: t("subscriber.account.deviceClaim"),
    about: t("subscriber.account.deviceClaimAbout"),
    to: "/device-claims",
  },
];

/**
 * Account: who you are and how you sign in, the people on your account, then `more` (help, requests,
 * notifications: declared `subscriberPlace: "account"`). Plain React and CSS, so the portal and the
 * light pages on a phone (main.tsx) draw the same page; it needs no request of its own.
 */
export function AccountView({
  user,
  navigate,
  more,
}: {
  user: SessionUser | undefined;
  navigate: Navigate;
  more: ReactNode;
}) {
  const drawn = usePageDrawn(true); // its tasks need no data
  const you: Task[] = [
    {
      key: "profile",
      title: t("subscriber.account.profile"),
      about: t("subscriber.account.profileAbout"),
      to: "/profile",
    },
    {
      key: "security",
      title: t("subscriber.account.security"),
      about: t("subscriber.account.securityAbout"),
      to: "/security",
    },
    {
      key: "privacy",
      title: t("subscriber.account.privacy"),
      about: t("subscriber.account.privacyAbout"),
      to: "/profile#privacy",
    },
    ...(user?.role === "subscriber"
      ? [
          {
            key: "people",
            title: t("subscriber.account.peoplePage"),
            about: t("subscriber.account.peopleAbout"),
            to: PEOPLE_PATH,
          },
        ]
      : []),
  ];
  return (
    <div className="sub-page">
      <h1 className="sub-page__title">{t("destinations.account")}</h1>
      {user && (
        <section className="sub-card" aria-label={t("subscriber.account.signedInAs")}>
          <p style={{ margin: 0 }}>
            <strong>{user.name}</strong>
          </p>
          <p className="sub-card__muted" style={{ margin: 0 }}>
            {user.email}
          </p>
        </section>
      )}
      <TaskList title={t("subscriber.account.you")} tasks={you} navigate={navigate} />
      {drawn && more}
    </div>
  );
}

/** Who is on the person's accounts, inviting and removing (PeoplePage). */
export const PEOPLE_PATH = "/account/people";
