import { useApiUrl, useCustom } from "@refinedev/core";
import { Descriptions, Tag, Typography } from "antd";
import type { Subscriber, SubscriberIdentity } from "../../../resources/subscribers";
import { translate as t } from "../../../i18n";
import { formatDateTime } from "../../../components/format";

/** How the holder signs in and whether a second factor guards the account; never a secret. */
export function IdentitySection({ subscriber }: { subscriber: Subscriber }) {
  const apiUrl = useApiUrl();
  const { result, query } = useCustom<SubscriberIdentity>({ url: `${apiUrl}/subscribers/${subscriber.id}/identity`, method: "get" });
  const identity = result?.data;
  if (query.isLoading) return <Typography.Text type="secondary">{t("care.loading")}</Typography.Text>;
  if (!identity?.uid) return <Typography.Text type="secondary">{t("care.identity.none")}</Typography.Text>;
  return (
    <Descriptions size="small" column={2} bordered>
      <Descriptions.Item label={t("fields.email")}>
        {identity.email ?? "—"} {identity.emailVerified ? <Tag color="green">{t("care.identity.verified")}</Tag> : <Tag>{t("care.identity.unverified")}</Tag>}
      </Descriptions.Item>
      <Descriptions.Item label={t("care.identity.state")}>{identity.disabled ? <Tag color="red">{t("care.identity.disabled")}</Tag> : <Tag color="green">{t("care.identity.enabled")}</Tag>}</Descriptions.Item>
      <Descriptions.Item label={t("care.identity.providers")}>
        {identity.providers.map((p) => <Tag key={p.providerId}>{t(`care.identity.provider.${p.providerId}`, undefined, p.providerId)}</Tag>)}
      </Descriptions.Item>
      <Descriptions.Item label={t("care.identity.mfa")}>
        {identity.mfa.length === 0 ? (
          <Tag color="orange">{t("care.identity.noMfa")}</Tag>
        ) : (
          identity.mfa.map((f, i) => <Tag key={i} color="green">{[f.factorId, f.displayName, f.phoneNumber].filter(Boolean).join(" · ")}</Tag>)
        )}
      </Descriptions.Item>
      <Descriptions.Item label={t("care.identity.created")}>{identity.createdAt ? formatDateTime(new Date(identity.createdAt).toISOString()) : "—"}</Descriptions.Item>
      <Descriptions.Item label={t("care.identity.lastSignIn")}>{identity.lastSignInAt ? formatDateTime(new Date(identity.lastSignInAt).toISOString()) : "—"}</Descriptions.Item>
    </Descriptions>
  );
}
