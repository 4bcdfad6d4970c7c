import L from "leaflet";
import iconUrl from "leaflet/dist/images/marker-icon.png";
import iconRetinaUrl from "leaflet/dist/images/marker-icon-2x.png";
import shadowUrl from "leaflet/dist/images/marker-shadow.png";

/*
 * leaflet.markercluster extends the global `L`: this module, imported before it, provides one.
 * The default marker icon's images, resolved by Vite (toolchain notes, pitfall 13).
 */
(globalThis as unknown as { L: typeof L }).L = L;
delete (L.Icon.Default.prototype as unknown as { _getIconUrl?: unknown })._getIconUrl;
L.Icon.Default.mergeOptions({ iconUrl, iconRetinaUrl, shadowUrl });

export default L;
