// The backend said this portal is too old (426, X-App-Version below its minimum): every screen then
// asks the person to reload, which fetches the current build.
let required = false;
const listeners = new Set<() => void>();

export const isReloadRequired = () => required;

export function markReloadRequired(): void {
  if (required) return;
  required = true;
  listeners.forEach((l) => l());
}

export function onReloadRequired(listener: () => void): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}
