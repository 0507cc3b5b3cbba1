// Plain data (no antd): the light home paints its status badges with the same tones as StatusTag.
/**
 * Tags that say how something stands. antd's preset tag colours put mid-tone text on a pale ground
 * (green is 3.4:1); these use the darkest shade of each palette on the same ground, over 4.5:1.
 */
export const TONES = {
  good: { color: "#135200", background: "#f6ffed", borderColor: "#b7eb8f" },
  waiting: { color: "#002c8c", background: "#e6f4ff", borderColor: "#91caff" },
  warning: { color: "#612500", background: "#fff7e6", borderColor: "#ffd591" },
  bad: { color: "#5c0011", background: "#fff1f0", borderColor: "#ffa39e" },
  neutral: { color: "#262626", background: "#fafafa", borderColor: "#d9d9d9" },
} as const;
export type Tone = keyof typeof TONES;

/** The tone of a record status value, as declarations name them. */
const STATUS_TONES: Record<string, Tone> = {
  active: "good",
  approved: "good",
  completed: "good",
  pending: "waiting",
  submitted: "waiting",
  acknowledged: "waiting",
  in_progress: "waiting",
  grace: "warning",
  suspended: "warning",
  rejected: "bad",
  failed: "bad",
};
export const toneOfStatus = (status: string): Tone => STATUS_TONES[status] ?? "neutral";
