// apache-arrow 18.1 writes an all-null Bool array to IPC with an empty values buffer, which
// LanceDB's Arrow import refuses ("Need at least N bytes for bitmap in buffers[0] in array of
// type Boolean, but got 0"). Random nd tables have all-null booleans (values, attribute keys no
// row of a write holds), so this makes the IPC writer write the (zeroed) values bitmap instead.
// It changes only how the JS side hands its data to LanceDB, not what the data is.
import { createRequire } from "node:module";

const require = createRequire(import.meta.url);
const { VectorAssembler } = require("../../interop/node_modules/apache-arrow/visitor/vectorassembler.js");

const visitBool = VectorAssembler.prototype.visitBool;
VectorAssembler.prototype.visitBool = function visitAllNullBool(data) {
  if (data.length > 0 && data.nullCount >= data.length && data.values instanceof Uint8Array) {
    return visitBool.call(this, Object.create(data, { nullCount: { value: 0 } }));
  }
  return visitBool.call(this, data);
};
