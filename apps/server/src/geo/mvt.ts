/**
 * A Mapbox Vector Tile (version 2) writer for features already cut and scaled to the tile: the
 * protobuf bytes written straight into one growing buffer as features come, keys and values
 * shared through maps. (A general encoder built objects per point and keyed its value table by
 * strings, which was most of a tile's time.)
 */
export type PropertyValue = string | number | boolean | null | undefined;

export interface MvtFeature {
  id?: number;
  /** 2: lines; 3: polygons (rings without the closing point; outer rings clockwise, y down). */
  type: 2 | 3;
  /** Parts (lines or rings) as flat whole tile coordinates: [x0, y0, x1, y1, ...]. */
  parts: number[][];
  properties: Record<string, PropertyValue>;
}

/**
 * Lines or rings in whole tile coordinates, part after part in one reusable buffer: what a tile's
 * cutting writes and its encoding reads, with no array per part or point.
 */
export class TileGeometry {
  xy = new Int32Array(256);
  /** Numbers used in `xy`. */
  size = 0;
  /** Where each part ends in `xy` (the first `partCount`). */
  readonly ends: number[] = [];
  partCount = 0;

  clear() {
    this.size = 0;
    this.partCount = 0;
  }

  /** Ends the part being written. */
  endPart() {
    this.ends[this.partCount++] = this.size;
  }

  push(x: number, y: number) {
    if (this.size + 2 > this.xy.length) {
      const larger = new Int32Array(this.xy.length * 2);
      larger.set(this.xy);
      this.xy = larger;
    }
    this.xy[this.size++] = x;
    this.xy[this.size++] = y;
  }

  /** The parts as arrays (for tests and the general writer). */
  parts(): number[][] {
    return this.ends.slice(0, this.partCount).map((end, i) => Array.from(this.xy.subarray(i ? this.ends[i - 1] : 0, end)));
  }

  /** Parts given as arrays, into this geometry. */
  setParts(parts: number[][]) {
    this.clear();
    for (const part of parts) {
      for (let i = 0; i < part.length; i += 2) this.push(part[i], part[i + 1]);
      this.endPart();
    }
  }
}

const LENGTH_DELIMITED = 2;
const VARINT = 0;
const FIXED64 = 1;

const zigzag = (n: number) => (n << 1) ^ (n >> 31);
const command = (id: number, count: number) => (id & 0x7) | (count << 3);
const MOVE_TO = 1;
const LINE_TO = 2;
const CLOSE_PATH = 7;

/**
 * A writer's buffer handed back once its tile was copied out, for the next tile to write into: a
 * new 64 KB buffer per tile was memory outside the heap that set off full collections (the slow
 * tiles at the 99th percentile).
 */
let spareBuffer: Buffer | null = null;

/** Protobuf bytes in one buffer that grows by doubling. */
class ProtobufWriter {
  bytes: Buffer;
  position = 0;

  constructor() {
    this.bytes = spareBuffer ?? Buffer.allocUnsafe(1 << 16);
    spareBuffer = null;
  }

  /** The bytes written, copied out to their own size; the buffer goes to the next writer. */
  take(): Uint8Array {
    const bytes = Uint8Array.prototype.slice.call(this.bytes, 0, this.position);
    spareBuffer = this.bytes;
    return bytes;
  }

  reserve(more: number) {
    if (this.position + more <= this.bytes.length) return;
    let size = this.bytes.length * 2;
    while (size < this.position + more) size *= 2;
    const larger = Buffer.allocUnsafe(size);
    this.bytes.copy(larger, 0, 0, this.position);
    this.bytes = larger;
  }

  /** A varint without a room check: the caller reserved 10 bytes (5 for a value below 2^32). */
  varintUnchecked(value: number) {
    const bytes = this.bytes;
    let position = this.position;
    if (value < 0x80000000) {
      while (value > 0x7f) {
        bytes[position++] = (value & 0x7f) | 0x80;
        value >>>= 7;
      }
    } else {
      // Values here fit in 53 bits: bytes by division past 31 bits.
      while (value > 0x7f) {
        bytes[position++] = (value % 128) | 0x80;
        value = Math.floor(value / 128);
      }
    }
    bytes[position++] = value;
    this.position = position;
  }

  varint(value: number) {
    this.reserve(10);
    this.varintUnchecked(value);
  }

  tag(field: number, wireType: number) {
    this.varint((field << 3) | wireType);
  }

  string(field: number, value: string) {
    this.tag(field, LENGTH_DELIMITED);
    const length = Buffer.byteLength(value);
    this.varint(length);
    this.reserve(length);
    this.bytes.write(value, this.position, 'utf8');
    this.position += length;
  }

  /** A string field from `length` UTF-8 bytes of `source` from `start`, as they are. */
  utf8(field: number, source: Uint8Array, start: number, length: number) {
    this.reserve(15 + length);
    this.varintUnchecked((field << 3) | LENGTH_DELIMITED);
    this.varintUnchecked(length);
    for (let i = 0; i < length; i++) this.bytes[this.position + i] = source[start + i];
    this.position += length;
  }

  double(field: number, value: number) {
    this.tag(field, FIXED64);
    this.reserve(8);
    this.bytes.writeDoubleLE(value, this.position);
    this.position += 8;
  }

  /** Starts a length-delimited field: one byte kept for its length (see end). */
  begin(field: number): number {
    this.reserve(6);
    this.varintUnchecked((field << 3) | LENGTH_DELIMITED);
    return ++this.position;
  }

  /** Ends the field begun at `start`: its content moves up when the length needs more than a byte. */
  end(start: number) {
    const length = this.position - start;
    if (length < 0x80) {
      this.bytes[start - 1] = length;
      return;
    }
    const lengthBytes = length < 0x4000 ? 2 : length < 0x200000 ? 3 : length < 0x10000000 ? 4 : 5;
    this.reserve(lengthBytes - 1);
    this.bytes.copyWithin(start + lengthBytes - 1, start, this.position);
    this.position = start - 1;
    this.varint(length);
    this.position += length;
  }
}

/** Stands in the value table for a text given by its UTF-8 bytes (see uniqueText). */
const BYTES = Symbol('bytes');
type TableValue = string | number | boolean | typeof BYTES;

/** One layer being written: features go in as they come; keys and values follow them at the end. */
export class MvtLayer {
  private readonly keys = new Map<string, number>();
  private readonly strings = new Map<string, number>();
  private readonly numbers = new Map<number, number>();
  private readonly booleans = new Map<boolean, number>();
  private readonly values: TableValue[] = [];
  /** Source, start and length of each text given by its bytes, in value order. */
  private readonly texts: (Uint8Array | number)[] = [];
  private readonly tags: number[] = [];
  /** The general `add`'s geometry, made on its first use. */
  private scratch: TileGeometry | null = null;
  private readonly start: number;
  count = 0;

  constructor(
    private readonly writer: ProtobufWriter,
    name: string,
    private readonly extent: number,
  ) {
    this.start = writer.begin(3);
    writer.tag(15, VARINT);
    writer.varint(2);
    writer.string(1, name);
  }

  /** The index of a property name. */
  key(name: string): number {
    let index = this.keys.get(name);
    if (index === undefined) this.keys.set(name, (index = this.keys.size));
    return index;
  }

  /** The index of a value, shared by every feature that has it. */
  value(value: string | number | boolean): number {
    const table = (typeof value === 'string' ? this.strings : typeof value === 'number' ? this.numbers : this.booleans) as Map<typeof value, number>;
    let index = table.get(value);
    if (index === undefined) {
      index = this.values.length;
      table.set(value, index);
      this.values.push(value);
    }
    return index;
  }

  /** The index of a number no other feature of the tile has (an id): no look-up. */
  uniqueNumber(value: number): number {
    return this.values.push(value) - 1;
  }

  /**
   * The index of a text no other feature of the tile has (a pipe's own id), given as `length`
   * UTF-8 bytes from `start` in `source`: written as they are, never made into a string.
   */
  uniqueText(source: Uint8Array, start: number, length: number): number {
    this.texts.push(source, start, length);
    return this.values.push(BYTES) - 1;
  }

  /** A feature from its tags (key index, value index, ...) and its geometry; nothing without a part. */
  addFeature(id: number | undefined, type: 2 | 3, tags: ArrayLike<number>, tagCount: number, geometry: TileGeometry) {
    if (geometry.partCount === 0) return;
    const { writer } = this;
    const start = writer.begin(2);
    if (id !== undefined) {
      writer.reserve(11);
      writer.varintUnchecked((1 << 3) | VARINT);
      writer.varintUnchecked(id);
    }
    if (tagCount) {
      const tagsStart = writer.begin(2);
      writer.reserve(tagCount * 5);
      for (let i = 0; i < tagCount; i++) writer.varintUnchecked(tags[i]);
      writer.end(tagsStart);
    }
    writer.reserve(2);
    writer.varintUnchecked((3 << 3) | VARINT);
    writer.varintUnchecked(type);
    const geometryStart = writer.begin(4);
    // The cursor carries from part to part.
    const { xy, ends, partCount } = geometry;
    let cx = 0;
    let cy = 0;
    let from = 0;
    for (let part = 0; part < partCount; part++) {
      const end = ends[part];
      // Each number below 2^32 as a varint: at most 5 bytes.
      writer.reserve(15 + (end - from) * 5);
      writer.varintUnchecked(command(MOVE_TO, 1));
      writer.varintUnchecked(zigzag(xy[from] - cx));
      writer.varintUnchecked(zigzag(xy[from + 1] - cy));
      cx = xy[from];
      cy = xy[from + 1];
      writer.varintUnchecked(command(LINE_TO, (end - from) / 2 - 1));
      for (let i = from + 2; i < end; i += 2) {
        writer.varintUnchecked(zigzag(xy[i] - cx));
        writer.varintUnchecked(zigzag(xy[i + 1] - cy));
        cx = xy[i];
        cy = xy[i + 1];
      }
      if (type === 3) writer.varintUnchecked(command(CLOSE_PATH, 1));
      from = end;
    }
    writer.end(geometryStart);
    writer.end(start);
    this.count++;
  }

  /** A feature with its properties by name (null and undefined ones left out). */
  add(feature: MvtFeature) {
    const { tags } = this;
    tags.length = 0;
    for (const key in feature.properties) {
      const value = feature.properties[key];
      if (value === null || value === undefined) continue;
      tags.push(this.key(key), this.value(value));
    }
    this.scratch ??= new TileGeometry();
    this.scratch.setParts(feature.parts);
    this.addFeature(feature.id, feature.type, tags, tags.length, this.scratch);
  }

  /** Writes the keys, values and extent; a layer without features is taken back out. */
  finish() {
    const { writer } = this;
    if (this.count === 0) {
      writer.position = this.start - 2;
      return;
    }
    for (const key of this.keys.keys()) writer.string(3, key);
    let text = 0;
    for (const value of this.values) {
      const start = writer.begin(4);
      if (typeof value === 'string') writer.string(1, value);
      else if (value === BYTES) {
        writer.utf8(1, this.texts[text] as Uint8Array, this.texts[text + 1] as number, this.texts[text + 2] as number);
        text += 3;
      }
      else if (typeof value === 'boolean') {
        writer.tag(7, VARINT);
        writer.varint(value ? 1 : 0);
      } else if (Number.isSafeInteger(value)) {
        // uint for whole numbers from zero up, sint (zigzag) below it.
        writer.tag(value >= 0 ? 5 : 6, VARINT);
        writer.varint(value >= 0 ? value : -2 * value - 1);
      } else writer.double(3, value);
      writer.end(start);
    }
    writer.tag(5, VARINT);
    writer.varint(this.extent);
    writer.end(this.start);
  }
}

/** A tile written layer by layer. */
export class MvtWriter {
  private readonly writer = new ProtobufWriter();

  constructor(private readonly extent: number) {}

  layer(name: string): MvtLayer {
    return new MvtLayer(this.writer, name, this.extent);
  }

  /** The tile's bytes, copied out to their own size (made tiles are kept); the tile is done. */
  bytes(): Uint8Array {
    return this.writer.take();
  }
}

/** The tile's bytes for layers of features; empty layers are left out. */
export function encodeMvt(layers: Record<string, MvtFeature[]>, extent: number): Uint8Array {
  const tile = new MvtWriter(extent);
  for (const [name, features] of Object.entries(layers)) {
    const layer = tile.layer(name);
    for (const feature of features) layer.add(feature);
    layer.finish();
  }
  return tile.bytes();
}
