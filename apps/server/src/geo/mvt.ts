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

const LENGTH_DELIMITED = 2;
const VARINT = 0;
const FIXED64 = 1;

const zigzag = (n: number) => (n << 1) ^ (n >> 31);
const command = (id: number, count: number) => (id & 0x7) | (count << 3);
const MOVE_TO = 1;
const LINE_TO = 2;
const CLOSE_PATH = 7;

/** Protobuf bytes in one buffer that grows by doubling. */
class ProtobufWriter {
  bytes = Buffer.allocUnsafe(1 << 16);
  position = 0;

  reserve(more: number) {
    if (this.position + more <= this.bytes.length) return;
    let size = this.bytes.length * 2;
    while (size < this.position + more) size *= 2;
    const larger = Buffer.allocUnsafe(size);
    this.bytes.copy(larger, 0, 0, this.position);
    this.bytes = larger;
  }

  varint(value: number) {
    this.reserve(10);
    // Values here fit in 53 bits: bytes by division past 31 bits.
    while (value > 0x7f) {
      this.bytes[this.position++] = (value % 128) | 0x80;
      value = Math.floor(value / 128);
    }
    this.bytes[this.position++] = value;
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

  double(field: number, value: number) {
    this.tag(field, FIXED64);
    this.reserve(8);
    this.bytes.writeDoubleLE(value, this.position);
    this.position += 8;
  }

  /** Starts a length-delimited field: one byte kept for its length (see end). */
  begin(field: number): number {
    this.tag(field, LENGTH_DELIMITED);
    this.reserve(1);
    return ++this.position;
  }

  /** Ends the field begun at `start`: its content moves up when the length needs more than a byte. */
  end(start: number) {
    const length = this.position - start;
    const lengthBytes = length < 0x80 ? 1 : length < 0x4000 ? 2 : length < 0x200000 ? 3 : length < 0x10000000 ? 4 : 5;
    if (lengthBytes > 1) {
      this.reserve(lengthBytes - 1);
      this.bytes.copyWithin(start + lengthBytes - 1, start, this.position);
    }
    this.position = start - 1;
    this.varint(length);
    this.position += length;
  }
}

/** One layer being written: features go in as they come; keys and values follow them at the end. */
export class MvtLayer {
  private readonly keys = new Map<string, number>();
  private readonly strings = new Map<string, number>();
  private readonly numbers = new Map<number, number>();
  private readonly booleans = new Map<boolean, number>();
  private readonly values: (string | number | boolean)[] = [];
  private readonly tags: number[] = [];
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

  private valueIndex(value: string | number | boolean): number {
    const table = (typeof value === 'string' ? this.strings : typeof value === 'number' ? this.numbers : this.booleans) as Map<typeof value, number>;
    let index = table.get(value);
    if (index === undefined) {
      index = this.values.length;
      table.set(value, index);
      this.values.push(value);
    }
    return index;
  }

  add(feature: MvtFeature) {
    const { writer, tags } = this;
    tags.length = 0;
    for (const key in feature.properties) {
      const value = feature.properties[key];
      if (value === null || value === undefined) continue;
      let keyIndex = this.keys.get(key);
      if (keyIndex === undefined) this.keys.set(key, (keyIndex = this.keys.size));
      tags.push(keyIndex, this.valueIndex(value));
    }
    const start = writer.begin(2);
    if (feature.id !== undefined) {
      writer.tag(1, VARINT);
      writer.varint(feature.id);
    }
    if (tags.length) {
      const tagsStart = writer.begin(2);
      for (const tag of tags) writer.varint(tag);
      writer.end(tagsStart);
    }
    writer.tag(3, VARINT);
    writer.varint(feature.type);
    const geometryStart = writer.begin(4);
    // The cursor carries from part to part.
    let cx = 0;
    let cy = 0;
    for (const part of feature.parts) {
      writer.varint(command(MOVE_TO, 1));
      writer.varint(zigzag(part[0] - cx));
      writer.varint(zigzag(part[1] - cy));
      cx = part[0];
      cy = part[1];
      writer.varint(command(LINE_TO, part.length / 2 - 1));
      for (let i = 2; i < part.length; i += 2) {
        writer.varint(zigzag(part[i] - cx));
        writer.varint(zigzag(part[i + 1] - cy));
        cx = part[i];
        cy = part[i + 1];
      }
      if (feature.type === 3) writer.varint(command(CLOSE_PATH, 1));
    }
    writer.end(geometryStart);
    writer.end(start);
    this.count++;
  }

  /** Writes the keys, values and extent; a layer without features is taken back out. */
  finish() {
    const { writer } = this;
    if (this.count === 0) {
      writer.position = this.start - 2;
      return;
    }
    for (const key of this.keys.keys()) writer.string(3, key);
    for (const value of this.values) {
      const start = writer.begin(4);
      if (typeof value === 'string') writer.string(1, value);
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

  /** The tile's bytes: a copy its own size (the writer's buffer is larger; made tiles are kept). */
  bytes(): Uint8Array {
    return Uint8Array.prototype.slice.call(this.writer.bytes, 0, this.writer.position);
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
