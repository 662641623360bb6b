// Loading manifests: files, directories and standard input, YAML (multi-document) or JSON,
// into documents whose every value keeps its line and column. Hostile input is bounded.
#pragma once

#include <string>
#include <vector>

#include "validation/core/finding.h"
#include "validation/core/node.h"

namespace jobset {

/// Bounds that keep hostile input from exhausting memory, stack or time.
struct LoadLimits {
  size_t max_file_bytes = 64u << 20;  ///< Larger files are refused whole.
  size_t max_nodes = 2'000'000;       ///< Values per document, aliases expanded.
  int max_depth = 1000;               ///< Nesting of mappings and sequences.
  /// Values copied for anchors and aliases in one file, all its documents together, counted
  /// before each copy is made: what bounds the memory and time of an alias bomb, whether it is
  /// one document or many documents each under `max_nodes`. A real manifest copies a pod
  /// template a few times (hundreds of values). 100,000 values are about 10 MB, so that lint -j 2
  /// over two hostile files stays under 50 MB.
  size_t max_alias_values = 100'000;
};

/// One YAML document of a file (a JSON file is one document).
struct Document {
  int index = 0;                  ///< 0-based position among the file's documents.
  Mark start;                     ///< Where the document starts.
  Node root;                      ///< Null when the document could not be parsed.
  bool parsed = false;            ///< False after a syntax or limit error (see `problems`).
  std::vector<Finding> problems;  ///< Syntax errors and limit violations, as error findings.
  /// The document uses aliases or merge keys: a value can then sit at several places of the
  /// tree while written once, so a fix there is not certain.
  bool aliases = false;
};

/// A loaded file: its text (kept for comments and fixes) and its documents.
struct SourceFile {
  std::string path;  ///< As the user named it; "-" for standard input.
  std::string text;
  std::vector<Document> documents;
  std::vector<Finding> problems;  ///< Problems of the file as a whole (too large, binary).
  std::string bom;                ///< The UTF-8 byte order mark removed from `text`, if any.
  bool utf16 = false;             ///< `text` was converted from UTF-16 (fixes are not offered).
};

/// Parses `text` (YAML or JSON) into documents. Never throws; problems become findings.
SourceFile ParseSource(std::string path, std::string text, const LoadLimits& limits = {});

/// Reads and parses one file, or standard input for "-". A file that cannot be read gives
/// false and a message in `*error` (a usage error, exit status 2).
bool LoadFile(const std::string& path, const LoadLimits& limits, SourceFile* out,
              std::string* error);

/// Expands the paths the user named into files: files as given, directories to their
/// `.yaml`, `.yml` and `.json` files (descending only when `recursive`), sorted by name.
/// A path that does not exist gives false and a message.
bool ExpandPaths(const std::vector<std::string>& paths, bool recursive,
                 std::vector<std::string>* files, std::string* error);

}  // namespace jobset
