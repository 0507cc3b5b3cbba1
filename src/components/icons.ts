import type { ComponentType } from "react";
import {
  AppstoreOutlined, AlertOutlined, BookOutlined, CustomerServiceOutlined, FileTextOutlined, GiftOutlined, HomeOutlined,
  MobileOutlined, SafetyCertificateOutlined, SafetyOutlined, TeamOutlined, ToolOutlined,
} from "@ant-design/icons";

/**
 * Icons that resource declarations may name. An explicit map keeps the bundle to the icons used
 * (importing all of @ant-design/icons would defeat tree shaking); a name not in it shows the default.
 */
export const icons: Record<string, ComponentType> = {
  AppstoreOutlined, AlertOutlined, BookOutlined, CustomerServiceOutlined, FileTextOutlined, GiftOutlined, HomeOutlined,
  MobileOutlined, SafetyCertificateOutlined, SafetyOutlined, TeamOutlined, ToolOutlined,
};

export const iconOf = (name: string): ComponentType => icons[name] ?? FileTextOutlined;
