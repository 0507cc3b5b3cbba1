import { useGetIdentity } from "@refinedev/core";
import { useNavigate } from "react-router";
import { translate as t } from "../../i18n";
import type { SessionUser } from "../../providers/session";
import { DestinationMore } from "./DestinationMore";
import { PeopleOnAccount } from "./PeopleOnAccount";
import { TaskList, type Task } from "./TaskList";
import "./subscriber.css";

/** Account: who you are and how you sign in, then help, requests and notifications (declared `subscriberPlace: "account"`). */
export function AccountPage() {
  const { data: user } = useGetIdentity<SessionUser>();
  const navigate = useNavigate();
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
  ];
  const more: Task[] = [
    {
      key: "device-claims",
      title: t("subscriber.account.deviceClaim"),
      about: t("subscriber.account.deviceClaimAbout"),
      to: "/device-claims",
    },
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
      {user?.role === "subscriber" && <PeopleOnAccount uid={user.uid} />}
      <TaskList title={t("subscriber.account.you")} tasks={you} navigate={(to) => void navigate(to)} />
      <DestinationMore place="account" extra={more} />
    </div>
  );
}
