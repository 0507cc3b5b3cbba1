import { useCustomMutation, useInvalidate, type HttpError } from "@refinedev/core";
import { Button, Result, Spin } from "antd";
import { useEffect, useRef, useState } from "react";
import { useNavigate } from "react-router";
import { translate as t } from "../../i18n";
import type { AcceptInvitationResult } from "../../resources/accountMembers";
import { forgetJoinToken, waitingJoinToken } from "../public/joinToken";
import "./subscriber.css";

/**
 * Where an account invitation's link leads (issue 28, `/join-account#<token>`), once signed in with
 * any method (main.tsx keeps the token through the sign-in or sign-up): accepts it at once and says
 * what the person can now do, or why the link does not work.
 */
export function JoinAccountPage() {
  const navigate = useNavigate();
  const invalidate = useInvalidate();
  const { mutateAsync: send } = useCustomMutation<AcceptInvitationResult>();
  // Read on the first render, forgotten once the invitation answered (not as it is read: a first
  // render that suspends is thrown away and runs again).
  const [token] = useState(waitingJoinToken);
  const [state, setState] = useState<{ done?: AcceptInvitationResult; error?: string }>(() =>
    token ? {} : { error: t("joinAccount.noLink") },
  );
  const started = useRef(false);

  useEffect(() => {
    if (started.current || !token) return;
    started.current = true;
    send({
      url: "/account-invitations/accept",
      method: "post",
      values: { token },
      successNotification: false,
      errorNotification: false,
    }).then(
      (answer) => {
        forgetJoinToken();
        setState({ done: answer.data });
        // Lines and accounts the person may now see.
        void invalidate({ invalidates: ["all"] });
      },
      (error: HttpError) => {
        forgetJoinToken();
        setState({ error: error.message });
      },
    );
  }, [send, invalidate, token]);

  const home = (
    <Button type="primary" onClick={() => void navigate("/")}>
      {t("joinAccount.toHome")}
    </Button>
  );
  return (
    <div className="sub-page">
      <h1 className="sub-page__title">{t("joinAccount.title")}</h1>
      {state.done ? (
        <Result
          status="success"
          title={t("joinAccount.joined", { account: state.done.accountName })}
          subTitle={t(state.done.role === "member" ? "joinAccount.joinedMember" : "joinAccount.joinedManager")}
          extra={home}
        />
      ) : state.error ? (
        <Result status="warning" title={state.error} extra={home} />
      ) : (
        <div role="status" style={{ textAlign: "center", padding: 24 }}>
          <Spin />
          <p>{t("joinAccount.joining")}</p>
        </div>
      )}
    </div>
  );
}
