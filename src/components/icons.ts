import type { ComponentType } from "react";
import { AppstoreOutlined, HomeOutlined, MobileOutlined, SafetyOutlined, TeamOutlined } from "@ant-design/icons";

/**
 * Icons that resource declarations may name. An explicit map keeps the bundle to the icons used
 * (importing all of @ant-design/icons would defeat tree shaking).
 */
export const icons: Record<string, ComponentType> = { AppstoreOutlined, MobileOutlined, HomeOutlined, SafetyOutlined, TeamOutlined };
