import { runtimeConfig } from "../../config/runtime";
import { getLocale } from "../../i18n";
import type { Address } from "../../resources/profile";

/**
 * Maps places autocomplete for the address form, only when VITE_MAPS_PLACES_KEY is set, and loaded
 * only when a form that uses it mounts (the profile page): no other page requests the maps host.
 * The build's CSP allows https://maps.googleapis.com exactly when the key is set.
 */
export const placesEnabled = Boolean(runtimeConfig.switches.mapsPlacesKey);

interface AddressComponent {
  long_name: string;
  short_name: string;
  types: string[];
}
interface PlacesAutocomplete {
  addListener(event: "place_changed", handler: () => void): { remove(): void };
  getPlace(): { address_components?: AddressComponent[] };
}
type MapsGlobal = Window & {
  google?: {
    maps?: {
      places?: { Autocomplete: new (input: HTMLInputElement, options: Record<string, unknown>) => PlacesAutocomplete };
    };
  };
  __portalPlacesReady?: () => void;
};

let loading: Promise<void> | undefined;

function loadPlaces(): Promise<void> {
  const w = window as MapsGlobal;
  if (w.google?.maps?.places) return Promise.resolve();
  loading ??= new Promise<void>((resolve, reject) => {
    w.__portalPlacesReady = () => resolve();
    const script = document.createElement("script");
    const params = new URLSearchParams({
      key: runtimeConfig.switches.mapsPlacesKey,
      libraries: "places",
      loading: "async",
      callback: "__portalPlacesReady",
      language: getLocale(),
    });
    script.src = `https://maps.googleapis.com/maps/api/js?${params}`;
    script.async = true;
    script.onerror = () => {
      loading = undefined; // the plain form keeps working; a later visit tries again
      reject(new Error("maps places did not load"));
    };
    document.head.appendChild(script);
  });
  return loading;
}

/** A chosen place's parts as the form's fields (US and Puerto Rico addresses). */
export function addressFromComponents(components: AddressComponent[]): Partial<Address> {
  const part = (type: string, short = false) => {
    const found = components.find((c) => c.types.includes(type));
    return found ? (short ? found.short_name : found.long_name) : "";
  };
  const zip = part("postal_code");
  const suffix = part("postal_code_suffix");
  const country = part("country", true);
  return {
    line1: [part("street_number"), part("route")].filter(Boolean).join(" "),
    city: part("locality") || part("sublocality") || part("postal_town"),
    // Puerto Rico comes back as a country; the form lists it as a state.
    state: (country === "PR" ? "PR" : part("administrative_area_level_1", true)) as Address["state"],
    zip: suffix ? `${zip}-${suffix}` : zip,
  };
}

/** Attaches autocomplete to an input; `onPlace` gets the address fields. Returns a function that detaches it. */
export async function attachPlaces(
  input: HTMLInputElement,
  onPlace: (address: Partial<Address>) => void,
): Promise<() => void> {
  await loadPlaces();
  const Autocomplete = (window as MapsGlobal).google!.maps!.places!.Autocomplete;
  const autocomplete = new Autocomplete(input, {
    fields: ["address_components"],
    types: ["address"],
    componentRestrictions: { country: ["us", "pr"] },
  });
  const listener = autocomplete.addListener("place_changed", () =>
    onPlace(addressFromComponents(autocomplete.getPlace().address_components ?? [])),
  );
  return () => listener.remove();
}
