#include "lance_nd/table/tags.h"

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <ctime>
#include <string>
#include <utility>

namespace lance_nd::table {
namespace {

bool IsAsciiAlnum(char c) {
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9');
}

std::string TagPath(const TableLocation& location, const std::string& tag) {
  return location.Path(kTagsDir, tag + ".json");
}

// RFC 3339 like chrono's serde form (SecondsFormat::AutoSi): 0, 3, 6 or 9 fraction digits.
std::string FormatUtc(std::chrono::sys_time<std::chrono::nanoseconds> t) {
  const auto secs = std::chrono::floor<std::chrono::seconds>(t);
  const auto nanos = static_cast<long long>((t - secs).count());
  const std::time_t tt = static_cast<std::time_t>(secs.time_since_epoch().count());
  std::tm tm{};
  gmtime_r(&tt, &tm);
  char buf[64];
  std::strftime(buf, sizeof buf, "%Y-%m-%dT%H:%M:%S", &tm);
  std::string out = buf;
  char frac[32] = "";
  if (nanos == 0) {
  } else if (nanos % 1'000'000 == 0) {
    std::snprintf(frac, sizeof frac, ".%03lld", nanos / 1'000'000);
  } else if (nanos % 1000 == 0) {
    std::snprintf(frac, sizeof frac, ".%06lld", nanos / 1000);
  } else {
    std::snprintf(frac, sizeof frac, ".%09lld", nanos);
  }
  return out + frac + "Z";
}

Status ReadText(io::FileSystem& fs, const std::string& file, std::string* out) {
  LND_ASSIGN_OR_RETURN(auto f, fs.OpenForRead(file));
  if (f->Size() > (1u << 20)) {
    return Status::Corrupt("tag file '" + file + "' is " + std::to_string(f->Size()) +
                           " bytes; a tag file is a small JSON object (at most 1 MiB accepted)");
  }
  LND_ASSIGN_OR_RETURN(io::Bytes bytes, io::ReadWholeFile(*f));
  out->assign(bytes->begin(), bytes->end());
  return Status::OK();
}

}  // namespace

Status ValidateTagName(std::string_view tag) {
  const auto bad = [&](const std::string& why) {
    return Status::InvalidArgument("invalid tag name '" + std::string(tag) + "': " + why);
  };
  if (tag.empty()) return Status::InvalidArgument("invalid tag name: a tag name cannot be empty");
  for (const char c : tag) {
    if (!IsAsciiAlnum(c) && c != '.' && c != '-' && c != '_') {
      return bad("only ASCII letters, digits, '.', '-' and '_' are allowed");
    }
  }
  if (tag.front() == '.') return bad("a tag name cannot begin with '.'");
  if (tag.back() == '.') return bad("a tag name cannot end with '.'");
  if (tag.ends_with(".lock")) return bad("a tag name cannot end with '.lock'");
  if (tag.find("..") != std::string_view::npos) return bad("a tag name cannot contain '..'");
  return Status::OK();
}

Result<TagInfo> CreateTag(const TableLocation& location, const std::string& tag,
                          std::uint64_t version) {
  LND_RETURN_NOT_OK(ValidateTagName(tag));
  LND_ASSIGN_OR_RETURN(VersionList versions, ListVersions(location));
  io::FileSystem& fs = location.fs();
  const std::string& path = location.root();
  if (!std::binary_search(versions.versions.begin(), versions.versions.end(), version)) {
    return Status::NotFound(
        "cannot tag version " + std::to_string(version) + " of table '" + path + "' as '" + tag +
        "': the version does not exist (versions " + std::to_string(versions.versions.front()) +
        ".." + std::to_string(versions.versions.back()) + ", old ones may have been cleaned up)");
  }
  const std::string file = TagPath(location, tag);
  LND_ASSIGN_OR_RETURN(bool exists, fs.Exists(file));
  if (exists) {
    return Status::AlreadyExists("tag '" + tag + "' already exists in table '" + path +
                                 "'; delete it first to move it");
  }
  const std::string manifest_path =
      location.Path(kVersionsDir, ManifestFileName(version, versions.naming));
  LND_ASSIGN_OR_RETURN(auto manifest, fs.OpenForRead(manifest_path));
  TagInfo info;
  info.name = tag;
  info.version = version;
  info.manifest_size = manifest->Size();
  info.created_at = FormatUtc(
      std::chrono::time_point_cast<std::chrono::nanoseconds>(std::chrono::system_clock::now()));
  info.updated_at = info.created_at;
  const std::string json = TagFileJson(info);
  LND_RETURN_NOT_OK(fs.CreateDir(location.TagsDir()));
  const Status st = fs.CreateIfAbsent(
      file, std::span(reinterpret_cast<const std::uint8_t*>(json.data()), json.size()));
  if (st.code() == StatusCode::kAlreadyExists) {
    return Status::AlreadyExists("tag '" + tag + "' already exists in table '" + path +
                                 "' (created concurrently); delete it first to move it");
  }
  LND_RETURN_NOT_OK(st);
  return info;
}

Status DeleteTag(const TableLocation& location, const std::string& tag) {
  LND_RETURN_NOT_OK(ValidateTagName(tag));
  const std::string& path = location.root();
  const std::string file = TagPath(location, tag);
  const Status st = location.fs().Delete(file);
  if (st.code() == StatusCode::kNotFound) {
    return Status::NotFound("tag '" + tag + "' does not exist in table '" + path + "'");
  }
  return st;
}

Result<TagInfo> GetTag(const TableLocation& location, const std::string& tag) {
  LND_RETURN_NOT_OK(ValidateTagName(tag));
  const std::string& path = location.root();
  const std::string file = TagPath(location, tag);
  std::string text;
  const Status st = ReadText(location.fs(), file, &text);
  if (st.code() == StatusCode::kNotFound) {
    return Status::NotFound("tag '" + tag + "' does not exist in table '" + path + "'");
  }
  LND_RETURN_NOT_OK(st);
  return ParseTagFileJson(text, tag, file);
}

Result<std::vector<TagInfo>> ListTags(const TableLocation& location) {
  const std::string dir = location.TagsDir();
  auto entries = location.fs().ListFileNames(dir);
  if (!entries.ok()) {
    if (entries.status().code() == StatusCode::kNotFound) return std::vector<TagInfo>{};
    return std::move(entries).status();
  }
  std::vector<TagInfo> out;
  for (const std::string& entry : *entries) {
    if (!entry.ends_with(".json")) continue;
    const std::string name = entry.substr(0, entry.size() - 5);
    if (!ValidateTagName(name).ok()) continue;
    std::string text;
    const std::string file = JoinPath(dir, entry);
    const Status st = ReadText(location.fs(), file, &text);
    if (st.code() == StatusCode::kNotFound) continue;  // deleted while listing
    LND_RETURN_NOT_OK(st);
    LND_ASSIGN_OR_RETURN(TagInfo info, ParseTagFileJson(text, name, file));
    out.push_back(std::move(info));
  }
  std::sort(out.begin(), out.end(),
            [](const TagInfo& a, const TagInfo& b) { return a.name < b.name; });
  return out;
}

Result<Dataset> OpenTag(const TableLocation& location, const std::string& tag) {
  if (location.file_system() == nullptr) {
    return Status::InvalidArgument("OpenTag needs a file system");
  }
  LND_ASSIGN_OR_RETURN(TagInfo info, GetTag(location, tag));
  if (info.branch) {
    return Status::NotImplemented("tag '", tag, "' of table '", location.root(),
                                  "' points at branch '", *info.branch,
                                  "'; branches are not supported yet");
  }
  return Dataset::Open(location, info.version)
      .WithContext("opening tag '" + tag + "' (version " + std::to_string(info.version) + ")");
}

}  // namespace lance_nd::table
