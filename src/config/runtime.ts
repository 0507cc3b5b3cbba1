// The validated build-time configuration as the browser sees it. vite.config.ts validates every
// VITE_* variable with ./env.ts and defines the parsed values, so these reads are always valid.
import { APP_VERSION } from "./operator";

const env = import.meta.env;

export const runtimeConfig = {
  operator: env.VITE_OPERATOR as string,
  appVersion: APP_VERSION,
  apiUrl: (env.VITE_API_URL as string) ?? "",
  firebase: {
    apiKey: env.VITE_FIREBASE_API_KEY as string,
    authDomain: env.VITE_FIREBASE_AUTH_DOMAIN as string,
    projectId: env.VITE_FIREBASE_PROJECT_ID as string,
    appId: (env.VITE_FIREBASE_APP_ID as string) || undefined,
    databaseURL: (env.VITE_FIREBASE_DATABASE_URL as string) || undefined,
    storageBucket: (env.VITE_FIREBASE_STORAGE_BUCKET as string) || undefined,
  },
  authEmulatorHost: (env.VITE_AUTH_EMULATOR_HOST as string) ?? "",
  databaseEmulatorHost: (env.VITE_DATABASE_EMULATOR_HOST as string) ?? "",
  /** The operator's third-party switches; each empty string means "off: nothing is loaded". */
  switches: {
    tagManagerId: (env.VITE_TAG_MANAGER_ID as string) ?? "",
    analyticsIds: ((env.VITE_ANALYTICS_IDS as string) ?? "").split(",").filter(Boolean),
    tagScriptOrigin: ((env.VITE_TAG_SCRIPT_ORIGIN as string) ?? "https://www.googletagmanager.com").replace(/\/$/, ""),
    crmChatScriptUrl: (env.VITE_CRM_CHAT_SCRIPT_URL as string) ?? "",
    crmTrackerUrl: (env.VITE_CRM_TRACKER_URL as string) ?? "",
    chatAccessKey: (env.VITE_CHAT_ACCESS_KEY as string) ?? "",
    mapsPlacesKey: (env.VITE_MAPS_PLACES_KEY as string) ?? "",
    bitrixIntegrationRequired:
      env.VITE_BITRIX_INTEGRATION_REQUIRED === true || env.VITE_BITRIX_INTEGRATION_REQUIRED === "true",
  },
} as const;
