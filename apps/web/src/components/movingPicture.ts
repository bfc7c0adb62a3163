import type OlMap from 'ol/Map';
import Layer from 'ol/layer/Layer';
import type BaseLayer from 'ol/layer/Base';
import type RenderEvent from 'ol/render/Event';
import type { FrameState } from 'ol/Map';
import type { EventsKey } from 'ol/events';
import { unByKey } from 'ol/Observable';

/** A drag held this still (ms) shows the layer drawn for real. */
const STILL_MS = 300;

interface Shot {
  canvas: HTMLCanvasElement;
  extent: number[];
  resolution: number;
}

/**
 * While the view moves (a drag, a wheel zoom), a WebGL layer is shown as a picture of its last
 * frame, moved and scaled with the view, instead of being drawn again each frame: a layer of
 * tens of thousands of points costs a frame far over budget where WebGL runs in software, a
 * picture costs one image copy. The layer is drawn again, for real, once the view stops.
 * A drag freezes on its first pointer move, before the view has moved (no slow first frame); held
 * still, it shows the layer drawn again, with what the drag uncovered.
 */
export function pictureWhileMoving(map: OlMap, initial: Layer) {
  let layer = initial;
  let last: Shot | null = null;
  let shot: Shot | null = null;
  let listening: EventsKey | null = null;
  const output = document.createElement('canvas');
  output.style.cssText = 'position:absolute;left:0;top:0;width:100%;height:100%';

  /** The last frame the layer drew, with where it lies (its canvas is kept: preserveDrawingBuffer). */
  const track = (next: Layer) => {
    if (listening) unByKey(listening);
    layer = next;
    listening = layer.on('postrender', (event: RenderEvent) => {
      const gl = event.context as WebGLRenderingContext | undefined;
      if (!gl?.canvas || !event.frameState) return;
      last = { canvas: gl.canvas as HTMLCanvasElement, extent: [...event.frameState.extent!], resolution: event.frameState.viewState.resolution };
    });
  };
  track(initial);

  const picture = new Layer({
    visible: false,
    render(frameState: FrameState) {
      const [width, height] = frameState.size.map((n) => Math.round(n * frameState.pixelRatio));
      if (output.width !== width || output.height !== height) [output.width, output.height] = [width, height];
      const context = output.getContext('2d')!;
      context.clearRect(0, 0, width, height);
      if (shot) {
        const scale = frameState.pixelRatio / frameState.viewState.resolution;
        const extent = frameState.extent!;
        context.drawImage(shot.canvas, (shot.extent[0] - extent[0]) * scale, (extent[3] - shot.extent[3]) * scale, (shot.extent[2] - shot.extent[0]) * scale, (shot.extent[3] - shot.extent[1]) * scale);
      }
      return output;
    },
  });

  const freeze = () => {
    if (shot || !last || !layer.getVisible()) return;
    const copy = document.createElement('canvas');
    copy.width = last.canvas.width;
    copy.height = last.canvas.height;
    copy.getContext('2d')!.drawImage(last.canvas, 0, 0);
    shot = { ...last, canvas: copy };
    layer.setVisible(false);
    picture.setVisible(true);
  };
  const thaw = () => {
    if (!shot) return;
    shot = null;
    layer.setVisible(true);
    picture.setVisible(false);
  };
  // A drag held still for a moment draws the layer for real (what the drag uncovered fills in);
  // moving on takes a new picture.
  let still: ReturnType<typeof setTimeout> | undefined;
  const dragged = () => {
    freeze();
    clearTimeout(still);
    still = setTimeout(thaw, STILL_MS);
  };
  // A drag that moved nothing (drawing a box, say) ends without a moveend.
  const released = () => {
    clearTimeout(still);
    setTimeout(() => !map.getView().getAnimating() && !map.getView().getInteracting() && thaw());
  };
  map.on('pointerdrag', dragged);
  map.on('pointerup' as never, released);
  map.on('movestart', freeze);
  map.on('moveend', thaw);
  return {
    /** The layer to stand in for: add it right above the WebGL layer. */
    picture: picture as BaseLayer,
    /** A WebGL layer made again (new style) takes the old one's place. */
    track,
    dispose() {
      if (listening) unByKey(listening);
      clearTimeout(still);
      map.un('pointerdrag', dragged);
      map.un('pointerup' as never, released);
      map.un('movestart', freeze);
      map.un('moveend', thaw);
      picture.dispose();
    },
  };
}
