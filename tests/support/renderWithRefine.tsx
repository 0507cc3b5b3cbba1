import type { ReactNode } from "react";
import { render } from "@testing-library/react";
import {
  Refine,
  type AccessControlProvider,
  type AuthProvider,
  type DataProvider,
  type OpenNotificationParams,
  type ResourceProps,
} from "@refinedev/core";
import routerProvider from "@refinedev/react-router";
import { App as AntdApp } from "antd";
import { MemoryRouter, Route, Routes } from "react-router";
import { vi } from "vitest";
import "../../src/resources"; // registers the declarations' messages
import { i18nProvider } from "../../src/providers/i18nProvider";
import { portalQueryOptions } from "../../src/providers/queryRetry";
import type { Role } from "../../src/resources/define";

type DataMethods = Partial<Record<keyof DataProvider, unknown>>;

/** What a page hands the data provider's create, update or custom: read back from a stand-in's calls. */
export interface SentRequest {
  resource?: string;
  url?: string;
  method?: string;
  variables?: Record<string, unknown>;
  payload?: unknown;
  meta?: { idempotencyKey?: string };
}

export interface RefineHarness<D extends DataMethods> {
  /** Who is signed in (the operator is always ATT). */
  identity: { uid: string; role: Role };
  /** Data provider methods to use instead of the empty defaults (every default is a vi.fn). */
  data?: D;
  /** Where the router starts. */
  path?: string;
  /** Refine's resources, for pages that look up their routes. */
  resources?: ResourceProps[];
  /** Whether the viewer may do an action on a resource (Refine's access control); default everything. */
  can?: (params: { resource?: string; action: string }) => boolean;
  /** Route pattern → element; without them `ui` is rendered at every address. */
  routes?: Record<string, ReactNode>;
  /** Receives the toasts Refine opens (its notification provider's open); none by default. */
  notify?: (notice: OpenNotificationParams) => void;
}

/**
 * Renders `ui` (or `routes`) inside the portal's providers as the app wires them, Refine with a
 * stand-in data provider and a signed-in identity, so a component test exercises the real
 * pages, dialogs and i18n. Returns the data provider to assert on its calls.
 */
export function renderWithRefine<D extends DataMethods = Record<never, never>>(
  ui: ReactNode,
  harness: RefineHarness<D>,
) {
  const defaults = {
    getApiUrl: () => "/api/v1",
    getOne: vi.fn(),
    getList: vi.fn(() => Promise.resolve({ data: [], total: 0 })),
    getMany: vi.fn(() => Promise.resolve({ data: [] })),
    create: vi.fn(),
    update: vi.fn(),
    deleteOne: vi.fn(),
    custom: vi.fn(),
  };
  const dataProvider = { ...defaults, ...harness.data } as Omit<typeof defaults, keyof D> & D;
  const authProvider: AuthProvider = {
    login: () => Promise.resolve({ success: true }),
    logout: () => Promise.resolve({ success: true }),
    check: () => Promise.resolve({ authenticated: true }),
    onError: () => Promise.resolve({}),
    getIdentity: () => Promise.resolve({ ...harness.identity, operator: "ATT" }),
  };
  const accessControlProvider: AccessControlProvider | undefined = harness.can
    ? { can: ({ resource, action }) => Promise.resolve({ can: harness.can!({ resource, action }) }) }
    : undefined;
  const routes = harness.routes ?? { "*": ui };
  render(
    <MemoryRouter initialEntries={[harness.path ?? "/"]}>
      <AntdApp>
        <Refine
          dataProvider={dataProvider as unknown as DataProvider}
          authProvider={authProvider}
          accessControlProvider={accessControlProvider}
          notificationProvider={harness.notify ? { open: harness.notify, close: () => {} } : undefined}
          routerProvider={routerProvider}
          i18nProvider={i18nProvider}
          resources={harness.resources}
          options={{ disableTelemetry: true, reactQuery: portalQueryOptions }}
        >
          <Routes>
            {Object.entries(routes).map(([path, element]) => (
              <Route key={path} path={path} element={element} />
            ))}
          </Routes>
        </Refine>
      </AntdApp>
    </MemoryRouter>,
  );
  return dataProvider;
}
