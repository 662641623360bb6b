// Reading a DLRover job-master log: the lines its node check (network-check rendezvous) prints,
// in the current (v0.6.0+: `network-check round N: ...`) and the older (`Round N: ...`) formats.
// Facts: the log lines of intelligent-machine-learning/dlrover@7c3e9648,
// dlrover/python/master/elastic_training/rdzv_manager.py.
#pragma once

#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace jobset {

/// What a recognised check line says.
enum class NetcheckLineKind {
  kJoin,        ///< `Worker node with id: <id>, rank: <rank> and ip: ... joining ...`
  kCompleted,   ///< `Completed <r> round rendezvous of network-check is {<id>: <rank>, ...}`
  kGroups,      ///< `Node groups of round <r>[ (phase: <p>)] are: [[...]].`
  kStatus,      ///< `(network-check round|Round) <R>: The node status are: {...}[, the node ...]`
  kElapsed,     ///< `(network-check round|Round) <R>: The node elapsed time are {...}`
  kNormal,      ///< `Normal nodes: [...]`
  kAbnormal,    ///< `Abnormal nodes: [...]`
  kFaultNodes,  ///< `Fault nodes(rank:node_id) are: {<rank>: <id>}[ in phase <p>]`
  kStraggler,   ///< `Straggler: {<rank>: <time>}.`
  kOther,       ///< Recognised, carries nothing the diagnosis uses (waiting nodes, join times).
};

/// One recognised line. Dictionary keys and values, ids and groups are kept as written (quotes
/// of Python strings removed).
struct NetcheckLine {
  int line = 0;  ///< 1-based line number.
  NetcheckLineKind kind = NetcheckLineKind::kOther;
  int round = -1;           ///< The round number as printed; -1 when the line has none.
  bool old_format = false;  ///< `Round N:` rather than `network-check round N:`.
  std::string phase;        ///< Group-node variant phase, when printed.
  std::vector<std::pair<std::string, std::string>> entries;  ///< A dict, in log order.
  std::vector<std::vector<std::string>> groups;              ///< Node groups, when printed.
  std::vector<std::string> ids;                              ///< Normal/Abnormal node lists.
  std::string node_id, rank;                                 ///< kJoin.
};

/// A line that looks like a check line but cannot be read.
struct UnparsedLine {
  int line = 0;
  std::string text;
  std::string why;
};

/// The check lines of a log.
struct NetcheckLog {
  std::vector<NetcheckLine> lines;
  std::vector<UnparsedLine> unparsed;
};

/// Reads every line of `text` (any prefix before the message, e.g. a timestamp and level, is
/// skipped). Lines that mention the check but match no known format, or whose dict or list is
/// cut off, go to `unparsed`. A message DLRover splits with a newline (`Completed ... is {...}
/// \nThe times ...`) is read line by line.
NetcheckLog ParseNetcheckLog(std::string_view text);

/// Parses a Python dict literal `{k: v, ...}` at the start of `text` (keys and values are
/// numbers, True/False/None or quoted strings); `*rest` gets what follows it.
bool ParsePyDict(std::string_view text, std::vector<std::pair<std::string, std::string>>* out,
                 std::string_view* rest);

/// Parses a Python list `[a, b]` or a list of lists `[[a, b], [c]]` at the start of `text` (a
/// flat list gives one group); `*rest` gets what follows it.
bool ParsePyGroups(std::string_view text, std::vector<std::vector<std::string>>* out,
                   std::string_view* rest);

/// Parses a number as DLRover prints it (`20.307`, `3600`); false for anything else.
bool ParseCheckTime(std::string_view text, double* out);

}  // namespace jobset
