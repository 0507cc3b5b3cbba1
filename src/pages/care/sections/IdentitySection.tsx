import { useApiUrl, useCustom } from "@refinedev/core";
import { Descriptions, Tag, Typography } from "antd";
import type { Subscriber, SubscriberIdentity } from "../../../resources/subscribers";
import { translate as t } from "../../../i18n";
import { formatDateTime } from "../../../components/format";
import { StatusTag } from "../../../components/StatusTag";
import type { ApiError } from "../../../providers/apiClient";
import { PROBLEM_TYPES } from "../../../resources/api";
import { VerifyCallerFirst } from "./CallerVerification";

/** How the holder signs in and whether a second factor guards the account; never a secret. */
export function IdentitySection({ subscriber }: { subscriber: Subscriber }) {
  const apiUrl = useApiUrl();
  const { result, query } = useCustom<SubscriberIdentity>({
    url: `${apiUrl}/subscribers/${subscriber.id}/identity`,
    method: "get",
  });
  const identity = result?.data;
  if ((query.error as ApiError | null | undefined)?.problemType === PROBLEM_TYPES.callerNotVerified)
    return <VerifyCallerFirst />;
  if (query.isLoading) return <Typography.Text type="secondary">{t("care.loading")}</Typography.Text>;
  if (!identity?.uid) return <Typography.Text type="secondary">{t("care.identity.none")}</Typography.Text>;
  return (
    <Descriptions size="small" column={2} bordered>
      <Descriptions.Item label={t("fields.email")}>
        {identity.email ?? "—"}{" "}
        {identity.emailVerified ? (
          <StatusTag tone="good">{t("care.identity.verified")}</StatusTag>
        ) : (
          <Tag>{t("care.identity.unverified")}</Tag>
        )}
      </Descriptions.Item>
      <Descriptions.Item label={t("care.identity.state")}>
        {identity.disabled ? (
          <StatusTag tone="bad">{t("care.identity.disabled")}</StatusTag>
        ) : (
          <StatusTag tone="good">{t("care.identity.enabled")}</StatusTag>
        )}
      </Descriptions.Item>
      <Descriptions.Item label={t("care.identity.providers")}>
        {identity.providers.map((p) => (
          <Tag key={p.providerId}>{t(`care.identity.provider.${p.providerId}`, undefined, p.providerId)}</Tag>
        ))}
      </Descriptions.Item>
      <Descriptions.Item label={t("care.identity.mfa")}>
        {identity.mfa.length === 0 ? (
          <StatusTag tone="warning">{t("care.identity.noMfa")}</StatusTag>
        ) : (
          identity.mfa.map((f, i) => (
            <StatusTag key={i} tone="good">
              {[f.factorId, f.displayName, f.phoneNumber].filter(Boolean).join(" · ")}
            </StatusTag>
          ))
        )}
      </Descriptions.Item>
      <Descriptions.Item label={t("care.identity.created")}>
        {identity.createdAt ? formatDateTime(new Date(identity.createdAt).toISOString()) : "—"}
      </Descriptions.Item>
      <Descriptions.Item label={t("care.identity.lastSignIn")}>
        {identity.lastSignInAt ? formatDateTime(new Date(identity.lastSignInAt).toISOString()) : "—"}
      </Descriptions.Item>
    </Descriptions>
  );
}
