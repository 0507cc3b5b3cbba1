/** A group of inputs in a form (radio buttons, a number picker) under its legend, looking like one field with its label. */
export const GROUP_STYLE = { border: 0, padding: 0, margin: 0, minWidth: 0 } as const;
// antd's form greys legends (45 % black, below AA contrast): the legend is the question, so it reads as a label does.
export const LEGEND_STYLE = {
  fontSize: 14,
  color: "rgba(0, 0, 0, 0.88)",
  padding: 0,
  marginBottom: 8,
  border: 0,
} as const;
