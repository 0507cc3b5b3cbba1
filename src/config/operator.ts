// Facts of this build. The carrier code is fixed per build (VITE_OPERATOR); the version is the
// product's, sent as X-App-Version on every API call. Shared by the portal and the backend.
export const APP_VERSION = "3.2.1";
export const DEFAULT_OPERATOR = "ATT";
export const OPERATOR_CODE_PATTERN = /^[A-Z0-9]{2,8}$/;
