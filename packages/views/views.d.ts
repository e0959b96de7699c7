/** The views as the build writes them (dist/index.js): each one HTML file with everything inlined. */
export interface View {
  uri: `ui://${string}`;
  name: string;
  title: string;
  description: string;
  html: string;
}

/** Sky plot of `proximos_pases`. */
export declare const skyPlotView: View;

/** Terrain map of `planificar_ruta` and `estado_rover`. */
export declare const terrainMapView: View;

/** Ground track of `posicion_satelite`. */
export declare const groundTrackView: View;
