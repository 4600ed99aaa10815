// Placeholder so lance_nd_proto has a source before any .proto exists.
