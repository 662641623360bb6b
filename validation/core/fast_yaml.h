// A fast path for the YAML most manifests are written in: block mappings and sequences, plain
// and quoted one-line scalars, one-line flow collections, literal block scalars and comments.
// It reports the same events, with the same marks, as yaml-cpp's parser, and gives up on
// anything else (anchors, tags, multi-line plain or flow values, folded scalars, escapes,
// tabs, non-ASCII text, ...), leaving that text to yaml-cpp. yaml-cpp's scanner is the slow
// part of loading (about 60% of a lint); this path does the same in a fraction of the time.
#pragma once

#include <yaml-cpp/emitterstyle.h>
#include <yaml-cpp/eventhandler.h>
#include <yaml-cpp/mark.h>

#include <string_view>

namespace jobset {

/// Parses `text`, one YAML document (optionally starting with a `---` line), into `handler`'s
/// events: OnDocumentStart, the node events, OnDocumentEnd. Returns false when the text uses
/// YAML this path does not handle; events already sent must then be discarded and the text
/// parsed by yaml-cpp. Marks are 0-based and relative to `text`, as yaml-cpp's.
bool FastParseYaml(std::string_view text, YAML::EventHandler* handler);

}  // namespace jobset
