// The shared library is made of the layer archives; this file anchors the target.
namespace lance_nd {
const char* VersionString() { return "0.1.0"; }
}  // namespace lance_nd
