// Rewrite DataFile.file_size_bytes in a Lance table manifest, so that a data file written by
// another program can replace the one Lance wrote (writer interop tests).
//
// Manifest file layout: ... | u32 length | Manifest protobuf | ... | u64 position of that length
// (16 bytes before the end). Manifest.fragments(#2) -> DataFragment.files(#2) ->
// DataFile.file_size_bytes(#6).
import fs from "node:fs";

function readVarint(buf, pos) {
  let v = 0n; let shift = 0n;
  for (;;) {
    const b = buf[pos++];
    v |= BigInt(b & 0x7f) << shift;
    if ((b & 0x80) === 0) return [v, pos];
    shift += 7n;
  }
}

function writeVarint(v) {
  v = BigInt.asUintN(64, BigInt(v));
  const out = [];
  do {
    let b = Number(v & 0x7fn);
    v >>= 7n;
    if (v) b |= 0x80;
    out.push(b);
  } while (v);
  return Buffer.from(out);
}

/** [{field, wire, value (Buffer for 1/2/5, BigInt for 0)}] of one message. */
function parseFields(buf) {
  const out = [];
  let pos = 0;
  while (pos < buf.length) {
    let key;
    [key, pos] = readVarint(buf, pos);
    const field = Number(key >> 3n); const wire = Number(key & 7n);
    if (wire === 0) {
      let v; [v, pos] = readVarint(buf, pos); out.push({ field, wire, value: v });
    } else if (wire === 2) {
      let len; [len, pos] = readVarint(buf, pos);
      out.push({ field, wire, value: buf.subarray(pos, pos + Number(len)) }); pos += Number(len);
    } else if (wire === 1) {
      out.push({ field, wire, value: buf.subarray(pos, pos + 8) }); pos += 8;
    } else if (wire === 5) {
      out.push({ field, wire, value: buf.subarray(pos, pos + 4) }); pos += 4;
    } else {
      throw new Error(`unsupported wire type ${wire}`);
    }
  }
  return out;
}

function encodeFields(fields) {
  const parts = [];
  for (const f of fields) {
    parts.push(writeVarint((BigInt(f.field) << 3n) | BigInt(f.wire)));
    if (f.wire === 0) parts.push(writeVarint(f.value));
    else if (f.wire === 2) parts.push(writeVarint(f.value.length), f.value);
    else parts.push(f.value);
  }
  return Buffer.concat(parts);
}

function patch(msg, path, newValue) {
  const fields = parseFields(msg);
  let found = false;
  for (const f of fields) {
    if (f.field !== path[0]) continue;
    found = true;
    f.value = path.length === 1 ? BigInt(newValue) : patch(f.value, path.slice(1), newValue);
  }
  if (!found && path.length === 1) fields.push({ field: path[0], wire: 0, value: BigInt(newValue) });
  return encodeFields(fields);
}

/** Set file_size_bytes of every data file in the manifest at `manifestPath` to `size`. */
export function patchManifestFileSize(manifestPath, size) {
  const d = fs.readFileSync(manifestPath);
  const pos = Number(d.readBigUInt64LE(d.length - 16));
  const len = d.readUInt32LE(pos);
  const manifest = d.subarray(pos + 4, pos + 4 + len);
  const patched = patch(manifest, [2, 2, 6], size);
  const lenBuf = Buffer.alloc(4); lenBuf.writeUInt32LE(patched.length);
  fs.writeFileSync(manifestPath, Buffer.concat([d.subarray(0, pos), lenBuf, patched, d.subarray(pos + 4 + len)]));
}
