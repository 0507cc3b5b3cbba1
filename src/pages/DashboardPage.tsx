import { useCustom, useGetIdentity, useSubscription } from "@refinedev/core";
import { Card, Input, Skeleton, Space, Typography } from "antd";
import { useNavigate } from "react-router";
import { translate as t } from "../i18n";
import type { SessionUser } from "../providers/session";
import type { Home } from "../resources/usage";
import { HomeLines } from "./home/HomeLines";

/** Home: a subscriber sees their lines at a glance; staff start from finding a subscriber. */
export function DashboardPage() {
  const { data: user } = useGetIdentity<SessionUser>();
  if (!user) return <Skeleton active />;
  return (
    <Space direction="vertical" size="large" style={{ width: "100%" }}>
      {/* The page's one h1 (at the size of a section's title: it greets, it does not shout). */}
      <Typography.Title level={1} style={{ margin: 0, fontSize: 30 }}>
        {t("dashboard.greeting", { name: user.name.split(" ")[0] })}
      </Typography.Title>
      {user.role === "subscriber" ? <SubscriberLines /> : <StaffSearch />}
    </Space>
  );
}

function SubscriberLines() {
  // One request for the whole home page (lines, plans, meters); meters refetch when the network counts usage.
  const navigate = useNavigate();
  const { query, result } = useCustom<Home>({ url: "/home", method: "get" });
  useSubscription({ channel: "resources/meters", types: ["*"], onLiveEvent: () => void query.refetch() });
  return (
    <HomeLines
      home={result.data?.lines ? result.data : undefined}
      error={query.isError ? (query.error?.message ?? "") : undefined}
      navigate={(to) => void navigate(to)}
    />
  );
}

function StaffSearch() {
  const navigate = useNavigate();
  return (
    <Card title={t("dashboard.findSubscriber")}>
      <Input.Search
        aria-label={t("dashboard.findPlaceholder")}
        placeholder={t("dashboard.findPlaceholder")}
        enterButton={t("dashboard.find")}
        size="large"
        allowClear
        // The same search as the Subscribers page (its ?q=), so both boxes find the same people.
        onSearch={(value) => {
          const q = value.trim();
          if (q) void navigate(`/subscribers?${new URLSearchParams({ q }).toString()}`);
        }}
      />
    </Card>
  );
}
