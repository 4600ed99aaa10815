// fsst: variable values compressed with a static symbol table (the codec is fsst.h); the
// compressed values are stored with the inner encoding (variable), the table in the message.
#include <string>

#include "lance_nd/file/encoding/encode_internal.h"
#include "lance_nd/file/encoding/fsst.h"
#include "lance_nd/file/encoding/schemes.h"
#include "lance_nd/file/encoding/util.h"

namespace lance_nd::file::internal::encoding::detail {
namespace {

Result<FsstTable> TableOf(const pb::Fsst& fsst) {
  return ParseFsstTable(std::span<const std::uint8_t>(
      reinterpret_cast<const std::uint8_t*>(fsst.symbol_table().data()),
      fsst.symbol_table().size()));
}

// fsst(table) over `inner`.
pb::CompressiveEncoding MakeFsst(const FsstTable& table, pb::CompressiveEncoding inner) {
  pb::CompressiveEncoding ce;
  auto* f = ce.mutable_fsst();
  const BufferPtr bytes = SerializeFsstTable(table);
  f->set_symbol_table(std::string(reinterpret_cast<const char*>(bytes->data()),
                                  static_cast<std::size_t>(bytes->size())));
  *f->mutable_values() = std::move(inner);
  return ce;
}

}  // namespace

Result<DataBlock> DecodeFsstMiniBlock(const pb::Fsst& fsst, std::span<const BufferPtr> buffers,
                                      std::uint64_t n) {
  LND_ASSIGN_OR_RETURN(FsstTable table, TableOf(fsst));
  LND_ASSIGN_OR_RETURN(DataBlock inner, DecodeMiniBlock(fsst.values(), buffers, n));
  return FsstDecompress(table, inner);
}

Result<DataBlock> DecodeFsstMiniBlockRanges(const pb::Fsst& fsst,
                                            std::span<const BufferPtr> buffers, std::uint64_t n,
                                            ValueRanges ranges) {
  LND_ASSIGN_OR_RETURN(FsstTable table, TableOf(fsst));
  LND_ASSIGN_OR_RETURN(DataBlock inner, DecodeMiniBlockRanges(fsst.values(), buffers, n, ranges));
  return FsstDecompress(table, inner);
}

Result<DataBlock> DecodeFsstPerValue(const pb::Fsst& fsst, const DataBlock& encoded) {
  LND_ASSIGN_OR_RETURN(FsstTable table, TableOf(fsst));
  LND_ASSIGN_OR_RETURN(DataBlock inner, DecodePerValueVariable(fsst.values(), encoded));
  return FsstDecompress(table, inner);
}

Result<MiniBlockEncoded> ChunkFsst(const DataBlock& values, std::uint64_t per_chunk) {
  LND_ASSIGN_OR_RETURN(FsstCompressed fsst, FsstCompress(values, /*force=*/false));
  LND_ASSIGN_OR_RETURN(MiniBlockEncoded out, ChunkVariable(fsst.values, per_chunk));
  *out.encoding = MakeFsst(fsst.table, *out.encoding);
  return out;
}

Result<PerValueEncoded> EncodeFsstPerValue(const DataBlock& values, bool force) {
  LND_ASSIGN_OR_RETURN(FsstCompressed f, FsstCompress(values, force));
  PerValueEncoded out;
  out.encoding = Share(MakeFsst(f.table, MakeVariable(values.bits_per_offset)));
  out.values = std::move(f.values);
  return out;
}

}  // namespace lance_nd::file::internal::encoding::detail
