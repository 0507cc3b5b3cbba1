import { createCache, extractStyle, StyleProvider } from "@ant-design/cssinjs";
import { BellOutlined } from "@ant-design/icons";
import {
  Alert,
  App as AntdApp,
  Badge,
  Button,
  Card,
  Col,
  ConfigProvider,
  Drawer,
  Empty,
  Grid,
  Layout,
  Menu,
  Progress,
  Row,
  Skeleton,
  Space,
  Spin,
  Tag,
  Tooltip,
  Typography,
} from "antd";
import { renderToString } from "react-dom/server";
import { portalTheme } from "./config/antdTheme";
import { brandOf } from "./config/brand";
import { runtimeConfig } from "./config/runtime";

/** Calls Grid's hook so the grid's own styles register too (Row and Col do that as well). */
function Breakpoints() {
  Grid.useBreakpoint();
  return null;
}

/**
 * What the portal's frame (layout, menu, mobile drawer, header with the notification bell; its
 * language picker is a native select) and a subscriber's home (cards, meters, their loading and
 * empty states) render; checked against the styles a signed-in home registers in the browser.
 *
 * antd generates its CSS in the browser, component by component, the first time each renders: on
 * a slow phone that was about a quarter of the signed-in home's first render. The build renders the
 * components of the portal's frame and home page here (same theme, so the same keys) and writes
 * their CSS as antd's own server-rendering <style> tags; main.tsx puts them in the page before the
 * portal renders, and antd then takes each from the page instead of generating it. Components not
 * listed are generated in the browser as before, so a missing one costs time, never looks.
 */
export function renderPortalStyles(): string {
  const cache = createCache();
  const theme = portalTheme(brandOf(runtimeConfig.operator).primary);
  renderToString(
    <StyleProvider cache={cache}>
      <ConfigProvider theme={theme}>
        <AntdApp>
          <Breakpoints />
          <Layout>
            <Layout.Header />
            <Layout>
              <Layout.Sider />
              <Layout.Content>
                <Menu items={[{ key: "a", label: "a" }]} />
                <Drawer open={false} />
                <Space>
                  <Button icon={<BellOutlined />}>a</Button>
                  <Badge count={1} />
                  <Tag>a</Tag>
                  <Tag color="blue">a</Tag>
                  <Tooltip title="a">
                    <span>a</span>
                  </Tooltip>
                </Space>
                <Typography.Title>a</Typography.Title>
                <Typography.Paragraph>
                  <Typography.Text>a</Typography.Text>
                  <Typography.Link>a</Typography.Link>
                </Typography.Paragraph>
                <Row>
                  <Col span={24}>
                    <Card title="a">
                      <Progress percent={50} showInfo={false} />
                    </Card>
                  </Col>
                </Row>
                <Skeleton active />
                <Alert message="a" />
                <Empty />
                <Spin />
              </Layout.Content>
            </Layout>
          </Layout>
        </AntdApp>
      </ConfigProvider>
    </StyleProvider>,
  );
  return extractStyle(cache);
}
