import { useGetIdentity } from "@refinedev/core";
import { translate as t } from "../../i18n";
import type { SessionUser } from "../../providers/session";
import { PeopleOnAccount } from "./PeopleOnAccount";
import "./subscriber.css";

/** People on your account, reached from Account: who else is on each account you hold or manage, inviting and removing. */
export function PeoplePage() {
  const { data: user } = useGetIdentity<SessionUser>();
  return (
    <div className="sub-page">
      <h1 className="sub-page__title">{t("subscriber.account.peoplePage")}</h1>
      {user && <PeopleOnAccount uid={user.uid} />}
    </div>
  );
}
