import "./leafletGlobal.ts";
import "leaflet.markercluster";
import "leaflet/dist/leaflet.css";
import "leaflet.markercluster/dist/MarkerCluster.css";
import "leaflet.markercluster/dist/MarkerCluster.Default.css";
import L from "leaflet";
import { useEffect, useMemo, useRef, useState } from "react";
import { Alert, Button, Card, Spinner } from "react-bootstrap";
import { MapContainer, Polygon, Polyline, TileLayer, useMap } from "react-leaflet";
import { useNavigate } from "react-router";
import { useTranslation } from "../i18n/index.ts";
import { useQuery } from "@tanstack/react-query";
import { ErrorAlert } from "../errors/ErrorAlert.tsx";
import type { PropertyRecord, TypeRecord } from "./entityModel.ts";
import { entityKeys, useConsoleSettings } from "./entityQueries.ts";
import { entityHref } from "./links.ts";
import {
  extentOf,
  geoProperties,
  loadMapEntities,
  MAP_CAP,
  PARIS,
  shapesOf,
  type MapArea,
  type MapShapes,
} from "./mapData.ts";

const red = "#FF0000";

/** The points as one cluster layer (leaflet.markercluster, chunked so that 10,000 stay usable). */
function ClusteredPoints({ points, onOpen }: { points: MapShapes["points"]; onOpen: (id: string) => void }) {
  const map = useMap();
  useEffect(() => {
    const group = L.markerClusterGroup({ chunkedLoading: true });
    group.addLayers(
      points.map((point) =>
        L.marker(point.at, { title: point.label, alt: point.label, keyboard: true }).on("click", () =>
          onOpen(point.id),
        ),
      ),
    );
    map.addLayer(group);
    return () => {
      map.removeLayer(group);
    };
  }, [map, points, onOpen]);
  return null;
}

/** Hands the Leaflet map to the tab, whose buttons (outside the map) read the area shown. */
function MapHandle({ into }: { into: { current: L.Map | undefined } }) {
  into.current = useMap();
  return null;
}

/**
 * Shows every shape when they change: one spot at the spec's zoom 10, several fitted (polygons
 * whole). Keeps Leaflet's idea of the map's size in step with its box, without which a cluster
 * expanded or a fit lands off the view.
 */
function FitShapes({ extent }: { extent: [L.LatLngTuple, L.LatLngTuple] | undefined }) {
  const map = useMap();
  useEffect(() => {
    const resize = new ResizeObserver(() => map.invalidateSize());
    resize.observe(map.getContainer());
    return () => resize.disconnect();
  }, [map]);
  useEffect(() => {
    if (!extent) return;
    map.invalidateSize();
    const [south, north] = extent;
    if (south[0] === north[0] && south[1] === north[1]) map.setView(south, 10);
    else map.fitBounds(extent, { padding: [24, 24], maxZoom: 17 });
  }, [map, extent]);
  return null;
}

/**
 * The map tab: the type's entities on a Leaflet map (zoom 10, 60vh, Paris by default), Points as
 * clustered markers that open the entity, Polygons and LineStrings in red. Tiles only when the
 * console configuration names a tile server (none in tests: nothing is fetched from the internet).
 */
export default function MapTab({
  workspaceId,
  type,
  properties,
}: {
  workspaceId: string;
  type: TypeRecord | undefined;
  properties: PropertyRecord[];
}) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const settings = useConsoleSettings();
  const geoNames = useMemo(
    () => (type ? geoProperties(properties, type.id).map((p) => p.name) : []),
    [properties, type],
  );
  // More entities than the map holds: the user zooms to an area and asks for its entities.
  const [area, setArea] = useState<MapArea>();
  const map = useRef<L.Map | undefined>(undefined);
  const data = useQuery({
    queryKey: [...entityKeys.all(workspaceId), "map", type?.name, geoNames, area],
    queryFn: () => loadMapEntities(workspaceId, type!.name, geoNames, area),
    enabled: !!type && geoNames.length > 0,
  });
  const shapes = useMemo(() => shapesOf(data.data?.entities ?? [], geoNames), [data.data, geoNames]);
  // An area keeps the view the user chose; the whole type is fitted.
  const extent = useMemo(() => (area ? undefined : extentOf(shapes)), [shapes, area]);
  const searchArea = () => {
    const bounds = map.current?.getBounds();
    if (bounds)
      setArea([
        [bounds.getSouth(), bounds.getWest()],
        [bounds.getNorth(), bounds.getEast()],
      ]);
  };
  const open = useMemo(
    () => (id: string) => navigate(entityHref(workspaceId, type?.id, id, "entities")),
    [navigate, workspaceId, type?.id],
  );
  if (!type) return <Alert variant="info">{t("entities.noTypeSelected")}</Alert>;
  const tiles = settings.data?.mapTileUrl;
  return (
    <Card>
      <Card.Header className="d-flex flex-wrap align-items-center justify-content-between gap-2">
        <h2 className="h5 mb-0 text-break">{t("map.titleOf", { type: type.name })}</h2>
        <span className="small text-body-secondary" data-testid="map-count">
          {data.data &&
            t("map.count", { count: shapes.points.length + shapes.polygons.length + shapes.lines.length })}
        </span>
      </Card.Header>
      <Card.Body>
        {geoNames.length === 0 && <Alert variant="info">{t("map.noGeoProperty")}</Alert>}
        {data.isError && <ErrorAlert error={data.error} />}
        {data.isFetching && (
          <Spinner animation="border" size="sm" role="status" aria-label={t("app.loading")} />
        )}
        {data.data && area && (
          <Alert variant="info" className="small py-2">
            {t("map.inArea", { shown: data.data.entities.length, total: data.data.total })}
          </Alert>
        )}
        {data.data?.capped && (
          <Alert variant="warning" className="small py-2">
            {t("map.capped", { shown: MAP_CAP, total: data.data.total })}
          </Alert>
        )}
        {(data.data?.capped || area) && (
          <div className="d-flex flex-wrap gap-2 mb-2">
            <Button size="sm" variant="outline-primary" onClick={searchArea}>
              {t("map.searchArea")}
            </Button>
            {area && (
              <Button size="sm" variant="outline-secondary" onClick={() => setArea(undefined)}>
                {t("map.wholeType")}
              </Button>
            )}
          </div>
        )}
        <div style={{ height: "60vh" }} role="region" aria-label={t("map.region", { type: type.name })}>
          <MapContainer
            center={PARIS}
            zoom={10}
            maxZoom={19}
            style={{ height: "100%", width: "100%" }}
            preferCanvas
          >
            {tiles && (
              <TileLayer
                url={tiles}
                attribution='&copy; <a href="https://www.openstreetmap.org/copyright">OpenStreetMap</a> contributors'
              />
            )}
            <MapHandle into={map} />
            <FitShapes extent={extent} />
            <ClusteredPoints points={shapes.points} onOpen={open} />
            {shapes.polygons.map((path, i) => (
              <Polygon
                key={`p${i}`}
                positions={path}
                pathOptions={{ color: red, opacity: 0.8, weight: 3, fillColor: red, fillOpacity: 0.35 }}
              />
            ))}
            {shapes.lines.map((path, i) => (
              <Polyline key={`l${i}`} positions={path} pathOptions={{ color: red, weight: 2 }} />
            ))}
          </MapContainer>
        </div>
      </Card.Body>
    </Card>
  );
}
