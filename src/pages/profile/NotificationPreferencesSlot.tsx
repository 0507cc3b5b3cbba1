/**
 * MERGE SLOT (contracts.md): the "usage" branch owns notification preferences and provides
 * `src/components/preferences/NotificationPreferencesCard.tsx`. At merge the lead replaces this
 * component's body with `return <NotificationPreferencesCard />;` (one import, one line). Until then
 * the profile page shows no preferences card rather than a placeholder.
 */
export function NotificationPreferencesSlot() {
  return null;
}
