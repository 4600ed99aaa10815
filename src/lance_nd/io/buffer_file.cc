// RandomAccessFile over in-memory bytes, and ReadWholeFile.
#include <cstring>
#include <string>
#include <utility>

#include "lance_nd/io/file.h"
#include "lance_nd/io/file_system.h"

namespace lance_nd::io {

Status RandomAccessFile::ReadInto(std::uint64_t offset, std::span<std::uint8_t> out) const {
  LND_ASSIGN_OR_RETURN(Bytes bytes, ReadAt(offset, out.size()));
  if (bytes->size() != out.size()) {
    return Status::IOError("read of " + std::to_string(out.size()) + " bytes at offset " +
                           std::to_string(offset) + " of '" + path() + "' returned " +
                           std::to_string(bytes->size()) + " bytes");
  }
  if (!out.empty()) std::memcpy(out.data(), bytes->data(), out.size());
  return Status::OK();
}

namespace {

class BufferFile final : public RandomAccessFile {
 public:
  BufferFile(Bytes bytes, std::string name) : bytes_(std::move(bytes)), name_(std::move(name)) {}

  std::uint64_t Size() const override { return bytes_->size(); }

  Result<Bytes> ReadAt(std::uint64_t offset, std::uint64_t length) const override {
    const std::uint64_t size = bytes_->size();
    if (offset > size || length > size - offset) {
      return Status::IOError("read of " + std::to_string(length) + " bytes at offset " +
                             std::to_string(offset) + " is beyond the end of '" + name_ + "' (" +
                             std::to_string(size) + " bytes)");
    }
    if (offset == 0 && length == size) return bytes_;
    const auto begin = bytes_->begin() + static_cast<std::ptrdiff_t>(offset);
    return std::make_shared<const std::vector<std::uint8_t>>(
        begin, begin + static_cast<std::ptrdiff_t>(length));
  }

  const std::string& path() const override { return name_; }

 private:
  Bytes bytes_;
  std::string name_;
};

}  // namespace

std::shared_ptr<RandomAccessFile> MakeBufferFile(Bytes bytes, std::string name) {
  if (!bytes) bytes = std::make_shared<const std::vector<std::uint8_t>>();
  return std::make_shared<BufferFile>(std::move(bytes), std::move(name));
}

std::shared_ptr<RandomAccessFile> MakeBufferFile(std::vector<std::uint8_t> bytes,
                                                 std::string name) {
  return MakeBufferFile(std::make_shared<const std::vector<std::uint8_t>>(std::move(bytes)),
                        std::move(name));
}

Result<Bytes> ReadWholeFile(const RandomAccessFile& file) { return file.ReadAt(0, file.Size()); }

}  // namespace lance_nd::io
