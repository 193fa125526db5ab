import { formatCount } from '@app/contract/count-format';
import { useEffect, useRef, useState } from 'react';
import { useNavigate } from 'react-router';
import L from 'leaflet';
import leafletCss from 'leaflet/dist/leaflet.css?inline';
import fleetMapCss from './fleet-map.css?inline';
import type { DeviceMapQuery, MapPoint } from '@app/contract/device-map';
import type { DeviceFilterQuery } from '@app/contract/device-filters';
import { paths } from '#web/lib/paths.ts';
import { useDeviceMap } from '../api/get-device-map.ts';
import { pointLabel, pointSize, pointState, pointStateLabels, viewQuery } from './fleet-map-points.ts';

/*
 * The stylesheets come with this chunk, added once when it loads: the build puts every imported
 * stylesheet into the one file every page loads (cssCodeSplit: false), which would make each
 * screen carry Leaflet's rules.
 */
const style = document.createElement('style');
style.textContent = `${leafletCss}\n${fleetMapCss}`;
document.head.append(style);

type View = Required<Pick<DeviceMapQuery, 'west' | 'south' | 'east' | 'north' | 'zoom'>>;

/**
 * Device Management's Map view (issue 16, decision 052): the machines the list's search and filters
 * match, clustered by the server for the view, coloured by online state. A machine opens its
 * page; a cluster zooms in. Loaded only when the Map view opens (Leaflet is about 40 kB gzipped).
 */
export default function FleetMap({ filters }: { filters: DeviceFilterQuery }) {
  const navigate = useNavigate();
  const holder = useRef<HTMLDivElement>(null);
  const mapRef = useRef<L.Map | null>(null);
  const layerRef = useRef<L.LayerGroup | null>(null);
  const [view, setView] = useState<View | null>(null);
  // The whole match first: its count and extent place the map; then each view's own points.
  const overview = useDeviceMap({ ...filters, zoom: 2 });
  const inView = useDeviceMap({ ...filters, ...view }, view !== null);

  useEffect(() => {
    const map = L.map(holder.current!, {
      minZoom: 1,
      maxZoom: 18,
      worldCopyJump: false,
      center: [20, 0],
      zoom: 2,
    });
    map.attributionControl.setPrefix(false);
    map.on('moveend', () => setView(viewQuery(map.getBounds(), map.getZoom())));
    mapRef.current = map;
    layerRef.current = L.layerGroup().addTo(map);
    return () => {
      map.remove();
      mapRef.current = null;
    };
  }, []);

  const tiles = overview.data?.tiles;
  useEffect(() => {
    const map = mapRef.current;
    if (!map || !tiles) return;
    const layer = L.tileLayer(tiles.url, { attribution: tiles.attribution, maxZoom: 18 }).addTo(map);
    return () => void layer.remove();
  }, [tiles]);

  // A new match (another search or filter) places the map on where its machines are.
  const extent = overview.data?.extent;
  const extentKey = extent ? `${extent.south},${extent.west},${extent.north},${extent.east}` : '';
  useEffect(() => {
    const map = mapRef.current;
    if (!map || !extent) return;
    map.fitBounds(
      [
        [extent.south, extent.west],
        [extent.north, extent.east],
      ],
      { padding: [32, 32], maxZoom: 12 },
    );
    // eslint-disable-next-line react-hooks/exhaustive-deps -- the extent's values, not its object
  }, [extentKey]);

  const points = (view ? inView.data?.points : undefined) ?? overview.data?.points;
  useEffect(() => {
    const map = mapRef.current;
    const layer = layerRef.current;
    if (!map || !layer || !points) return;
    layer.clearLayers();
    for (const point of points)
      layer.addLayer(markerOf(point, map, (id) => navigate(paths.deviceDetails.href({ id }))));
  }, [points, navigate]);

  const total = overview.data?.total;
  const shown = view ? inView.data?.inView : overview.data?.inView;
  const loading = overview.isPending || (view !== null && inView.isFetching);
  return (
    <div>
      <div ref={holder} className="fleet-map" role="region" aria-label="Fleet map" aria-busy={loading} />
      <div className="d-flex flex-wrap justify-content-between gap-2 mt-2 small">
        <p className="mb-0" aria-live="polite">
          {overview.isError || inView.isError
            ? 'The map could not be loaded. Try again.'
            : total === undefined || total === null
              ? 'Loading the map…'
              : total === 0
                ? 'No device matches.'
                : `${total === 1 ? '1 machine matches' : `${formatCount(total)} machines match`}; ${formatCount(shown ?? 0)} in view.`}
        </p>
        <ul className="list-inline mb-0" aria-label="Map colours">
          {(['online', 'offline', 'never'] as const).map((state) => (
            <li key={state} className="list-inline-item">
              <span className={`fleet-map-key fleet-map-${state}`} aria-hidden="true" />{' '}
              {pointStateLabels[state]}
            </li>
          ))}
        </ul>
      </div>
    </div>
  );
}

/** A point as a keyboard-reachable marker: Enter or Space does what a click does. */
function markerOf(point: MapPoint, map: L.Map, open: (id: string) => void) {
  const size = pointSize(point);
  const label = pointLabel(point);
  const marker = L.marker([point.latitude, point.longitude], {
    icon: L.divIcon({
      className: `fleet-map-point fleet-map-${pointState(point)}`,
      html: point.device ? '' : `<span aria-hidden="true">${formatCount(point.count)}</span>`,
      iconSize: [size, size],
    }),
    keyboard: true,
    title: label,
    // A lone machine is drawn above the clusters: one beside a cluster stays whole to aim at.
    zIndexOffset: point.device ? 1000 : 0,
  });
  const act = () => {
    if (point.device) open(point.device._id);
    else map.setView([point.latitude, point.longitude], Math.min(map.getMaxZoom(), map.getZoom() + 2));
  };
  marker.on('click', act);
  marker.on('keydown', (event) => {
    const key = (event.originalEvent as KeyboardEvent).key;
    if (key === 'Enter' || key === ' ') {
      event.originalEvent.preventDefault();
      act();
    }
  });
  marker.on('add', () => marker.getElement()?.setAttribute('aria-label', label));
  return marker;
}
