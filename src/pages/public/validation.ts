/** A plausible email address: enough to catch typos before Firebase is asked (it checks for real). */
export const isEmail = (value: string) => /^[^\s@]+@[^\s@]+\.[^\s@]+$/.test(value.trim());
