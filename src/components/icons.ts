import type { ComponentType } from "react";
import {
  FileTextOutlined,
  HomeOutlined,
  LineChartOutlined,
  MobileOutlined,
  SafetyOutlined,
  UserOutlined,
} from "@ant-design/icons";
import declared from "virtual:declared-icons";

/**
 * Icons by name: those the portal's own pages use, and every icon a resource declaration names
 * (any @ant-design/icons name; the build checks it exists and bundles only those).
 */
export const icons: Record<string, ComponentType> = {
  HomeOutlined,
  LineChartOutlined,
  MobileOutlined,
  SafetyOutlined,
  UserOutlined,
  ...declared,
};

export const iconOf = (name: string): ComponentType => icons[name] ?? FileTextOutlined;
