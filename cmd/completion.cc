// Shell completion with Cobra's `__complete` protocol, driven by the CLI11 app's own commands,
// options and validators so the candidates never drift from what the parser accepts.
#include "cmd/completion.h"

#include <CLI/CLI.hpp>
#include <algorithm>
#include <array>
#include <cctype>
#include <filesystem>
#include <ostream>
#include <set>
#include <utility>

#include "cmd/report.h"
#include "validation/jobset/feature_gates.h"

namespace jobset {
namespace {

/// A name and what it means, for candidates CLI11 cannot describe.
struct Described {
  std::string_view name;
  std::string_view description;
};

/// Descriptions of enumerated option values besides lint's formats (LintFormats, whose help
/// also describes text and json wherever they are offered); the values themselves come from
/// the validators.
constexpr std::array<Described, 13> kValueDescriptions = {{
    {"markdown", "Markdown, e.g. for a pull request"},
    {"error", "fail on errors only"},
    {"warning", "fail on warnings and errors"},
    {"info", "fail on any finding"},
    {"auto", "colour when standard output is a terminal and NO_COLOR is unset"},
    {"always", "always colour"},
    {"never", "never colour"},
    {"bash", "completion script for bash"},
    {"zsh", "completion script for zsh"},
    {"fish", "completion script for fish"},
    {"kubectl", "kubectl_complete-jobset, for `kubectl jobset <TAB>` (kubectl >= 1.26)"},
    {"true", "on"},
    {"false", "off"},
}};

/// The values of an option its parser checks by itself (no IsMember validator to read).
struct KnownValues {
  std::string_view command;  ///< The subcommand's name.
  std::string_view option;   ///< Long option name without dashes.
  std::vector<std::string_view> values;
};

/// Options validated in their Run function. `lint -o` also takes FORMAT=FILE; the unit test checks
/// the list against lint's own error message for an unknown format.
const std::vector<KnownValues>& KnownOptionValues() {
  static const std::vector<KnownValues> kKnown = [] {
    KnownValues lint_output{"lint", "output", {}};
    for (const LintFormat& f : LintFormats()) lint_output.values.push_back(f.name);
    return std::vector<KnownValues>{lint_output};
  }();
  return kKnown;
}

/// Options and positionals whose value is a file, and the extensions to offer.
struct FileArgument {
  std::string_view name;  ///< Long option name without dashes, or the positional's name.
  std::vector<std::string_view> extensions;
};

/// The file arguments. Names absent from the app are harmless.
const std::vector<FileArgument>& FileArguments() {
  static const std::vector<FileArgument> kFiles = {
      {"PATH", {"yaml", "yml", "json"}},
      {"crd", {"yaml", "yml", "json"}},
      {"scenario", {"yaml", "yml", "json"}},
      {"config", {"yaml", "yml"}},
      {"plot", {"svg"}},
      {"filename", {"json"}},
  };
  return kFiles;
}

/// The file names in completions/ for each `completion SHELL`.
constexpr std::array<std::pair<std::string_view, std::string_view>, 4> kScripts = {{
    {"bash", "kubectl-jobset.bash"},
    {"zsh", "_kubectl-jobset"},
    {"fish", "kubectl-jobset.fish"},
    {"kubectl", "kubectl_complete-jobset"},
}};

const char kCompletionFooter[] = R"(
Examples:
  # bash: this session (add the line to ~/.bashrc to keep it)
  source <(kubectl-jobset completion bash)

  # zsh, once compinit has run: this session; or save it as _kubectl-jobset in a $fpath folder
  source <(kubectl-jobset completion zsh)

  # fish
  kubectl-jobset completion fish > ~/.config/fish/completions/kubectl-jobset.fish

  # `kubectl jobset <TAB>` (kubectl >= 1.26) runs kubectl_complete-jobset from PATH, which krew
  # cannot install (krew issue #812): put it next to kubectl-jobset
  kubectl jobset completion kubectl > ~/.krew/bin/kubectl_complete-jobset
  chmod +x ~/.krew/bin/kubectl_complete-jobset
)";

/// One line: tabs and line breaks become spaces (a TAB separates the description).
std::string OneLine(std::string_view text) {
  std::string out(text);
  std::replace_if(
      out.begin(), out.end(), [](char c) { return c == '\t' || c == '\n' || c == '\r'; }, ' ');
  return out;
}

/// The description of an enumerated value, or "".
std::string_view ValueDescription(std::string_view value) {
  if (const LintFormat* f = FindLintFormat(value)) return f->help;
  for (const Described& d : kValueDescriptions) {
    if (d.name == value) return d.description;
  }
  return {};
}

/// Hidden subcommands and options (CLI11: an empty group) are never offered.
bool Hidden(const CLI::App& app) { return app.get_group().empty(); }
bool Hidden(const CLI::Option& opt) { return opt.get_group().empty(); }

/// Whether an option takes a value (as opposed to a flag).
bool TakesValue(const CLI::Option& opt) { return opt.get_items_expected_max() > 0; }

/// Whether an option may be given more than once with effect (a vector), so it is offered again.
bool Repeatable(const CLI::Option& opt) { return opt.get_items_expected_max() > 1; }

/// The name tables are keyed by: the first long name, else the positional name, else the short.
std::string KeyName(const CLI::Option& opt) {
  if (!opt.get_lnames().empty()) return opt.get_lnames().front();
  if (opt.get_positional()) return opt.get_name(true, false);
  if (!opt.get_snames().empty()) return opt.get_snames().front();
  return {};
}

/// The values of an IsMember check, read from the option's type name ("TEXT:{a,b,c}").
std::vector<std::string> EnumValues(const CLI::Option& opt) {
  std::string type = opt.get_type_name();
  size_t open = type.find('{');
  size_t close = type.find('}', open == std::string::npos ? 0 : open);
  if (open == std::string::npos || close == std::string::npos) return {};
  std::string_view set = std::string_view(type).substr(open + 1, close - open - 1);
  if (set.find("->") != std::string_view::npos) return {};  // A transform map, not a set.
  std::vector<std::string> values;
  while (!set.empty()) {
    size_t comma = set.find(',');
    std::string_view item = set.substr(0, comma);
    if (!item.empty()) values.emplace_back(item);
    if (comma == std::string_view::npos) break;
    set.remove_prefix(comma + 1);
  }
  return values;
}

/// The option of `cmd` a command-line word names ("--output", "--output=json", "-o", "-ojson"),
/// or nullptr; `inline_value` tells whether the word carries the value.
const CLI::Option* FindFlag(const CLI::App& cmd, std::string_view word, bool* inline_value) {
  *inline_value = false;
  if (word.size() < 2 || word[0] != '-') return nullptr;
  bool is_long = word[1] == '-';
  std::string_view name;
  if (is_long) {
    name = word.substr(2);
    size_t eq = name.find('=');
    if (eq != std::string_view::npos) {
      *inline_value = true;
      name = name.substr(0, eq);
    }
  } else {
    name = word.substr(1, 1);
    *inline_value = word.size() > 2;
  }
  for (const CLI::Option* opt : cmd.get_options()) {
    const std::vector<std::string>& names = is_long ? opt->get_lnames() : opt->get_snames();
    if (std::find(names.begin(), names.end(), name) != names.end()) return opt;
  }
  return nullptr;
}

/// The subcommand of `cmd` called `name`, or nullptr.
const CLI::App* FindSubcommand(const CLI::App& cmd, std::string_view name) {
  std::vector<const CLI::App*> found = cmd.get_subcommands(
      [name](const CLI::App* sub) { return sub->check_name(std::string(name)); });
  return found.empty() ? nullptr : found.front();
}

/// Adds `value` when it starts with `prefix`.
void AddIfPrefixed(CompletionResult* result, std::string value, std::string_view description,
                   std::string_view prefix) {
  if (value.compare(0, prefix.size(), prefix) != 0) return;
  result->candidates.push_back({std::move(value), OneLine(description)});
}

/// --feature-gates takes "Gate=bool,...": completes the item after the last comma, gates not yet
/// given, and keeps the earlier items in each candidate. No space: another item may follow.
CompletionResult FeatureGateValues(std::string_view value) {
  CompletionResult result;
  result.directive = kCompNoSpace | kCompNoFileComp;
  size_t comma = value.rfind(',');
  std::string head(comma == std::string_view::npos ? "" : value.substr(0, comma + 1));
  for (const FeatureGateInfo& gate : KnownFeatureGates()) {
    if (gate.field == nullptr) continue;  // locked to true: nothing to set
    std::string name(gate.name);
    if (("," + head).find("," + name + "=") != std::string::npos) continue;
    for (const char* on : {"true", "false"}) {
      AddIfPrefixed(&result, head + name + "=" + on, gate.description, value);
    }
  }
  return result;
}

/// The values `opt` of `cmd` accepts, from its IsMember validator or KnownOptionValues().
std::vector<std::string> EnumValues(const CLI::App& cmd, const CLI::Option& opt) {
  std::vector<std::string> values = EnumValues(opt);
  if (!values.empty()) return values;
  std::string key = KeyName(opt);
  for (const KnownValues& known : KnownOptionValues()) {
    if (known.command == cmd.get_name() && known.option == key) {
      return {known.values.begin(), known.values.end()};
    }
  }
  return {};
}

/// Candidates for the value of `opt` of `cmd`, of which `value` is typed so far.
CompletionResult OptionValues(const CLI::App& cmd, const CLI::Option& opt, std::string_view value) {
  std::string key = KeyName(opt);
  if (key == "feature-gates") return FeatureGateValues(value);
  CompletionResult result;
  std::vector<std::string> values = EnumValues(cmd, opt);
  if (!values.empty() && value.find('=') != std::string_view::npos) {
    return result;  // FORMAT=FILE: the file part, as the shell completes it by default.
  }
  if (!values.empty()) {
    result.directive = kCompNoFileComp;
    for (std::string& v : values) {
      std::string_view description = ValueDescription(v);
      AddIfPrefixed(&result, std::move(v), description, value);
    }
    return result;
  }
  for (const FileArgument& file : FileArguments()) {
    if (file.name != key) continue;
    result.directive = kCompFilterFileExt;
    for (std::string_view ext : file.extensions)
      result.candidates.push_back({std::string(ext), ""});
    return result;
  }
  // Options this table does not know: files or folders when their type says so, else nothing.
  std::string type = opt.get_type_name();
  if (type.find("DIR") != std::string::npos) {
    result.directive = kCompFilterDirs;
  } else if (type.find("FILE") != std::string::npos || type.find("PATH") != std::string::npos) {
    result.directive = kCompDefault;
  } else {
    result.directive = kCompNoFileComp;
  }
  return result;
}

/// The flags of `cmd` that `word` (starting with '-') may begin: long names for "--...", short and
/// long for "-". Flags already given are left out unless they can repeat.
CompletionResult FlagNames(const CLI::App& cmd, std::string_view word,
                           const std::set<const CLI::Option*>& used) {
  CompletionResult result;
  result.directive = kCompNoFileComp;
  for (const CLI::Option* opt : cmd.get_options()) {
    if (Hidden(*opt) || !opt->nonpositional()) continue;
    if (used.count(opt) != 0 && !Repeatable(*opt)) continue;
    for (const std::string& name : opt->get_lnames()) {
      AddIfPrefixed(&result, "--" + name, opt->get_description(), word);
    }
    for (const std::string& name : opt->get_snames()) {
      std::string flag = "-" + name;
      if (word == "-" || word == flag) AddIfPrefixed(&result, flag, opt->get_description(), word);
    }
  }
  return result;
}

/// Candidates for the positional argument number `index` (0-based) of `cmd`.
CompletionResult PositionalValues(const CLI::App& cmd, size_t index, std::string_view word) {
  size_t first = 0;
  for (const CLI::Option* opt : cmd.get_options()) {
    if (!opt->get_positional() || opt->nonpositional()) continue;
    size_t count = static_cast<size_t>(std::max(opt->get_items_expected_max(), 1));
    if (index < first + count) {
      CompletionResult result = OptionValues(cmd, *opt, word);
      // An argument no table knows is a path, as in Cobra.
      if (result.directive == kCompNoFileComp && result.candidates.empty() &&
          EnumValues(cmd, *opt).empty()) {
        result.directive = kCompDefault;
      }
      return result;
    }
    first += count;
  }
  return {{}, kCompNoFileComp};  // No argument is expected here.
}

}  // namespace

std::optional<CompletionRequest> FindCompletionRequest(int argc, const char* const* argv) {
  if (argc < 1) return std::nullopt;
  if (std::filesystem::path(argv[0]).filename() == kKubectlCompleteName) {
    return CompletionRequest{std::vector<std::string>(argv + 1, argv + argc), true};
  }
  if (argc < 2) return std::nullopt;
  std::string_view command = argv[1];
  if (command == kCompleteCommand) {
    return CompletionRequest{std::vector<std::string>(argv + 2, argv + argc), true};
  }
  if (command == std::string(kCompleteCommand) + "NoDesc") {
    return CompletionRequest{std::vector<std::string>(argv + 2, argv + argc), false};
  }
  return std::nullopt;
}

CompletionResult Complete(const CLI::App& app, const std::vector<std::string>& words) {
  std::string word = words.empty() ? "" : words.back();
  size_t before = words.empty() ? 0 : words.size() - 1;
  const CLI::App* cmd = &app;
  const CLI::Option* pending = nullptr;  // An option whose value is the next word.
  std::set<const CLI::Option*> used;
  size_t positionals = 0;
  bool only_positionals = false;  // After "--".
  bool help = false;              // After `help`: the words name commands.
  for (size_t i = 0; i < before; ++i) {
    const std::string& w = words[i];
    if (help) {
      const CLI::App* sub = FindSubcommand(*cmd, w);
      if (sub == nullptr) return {{}, kCompNoFileComp};
      cmd = sub;
      continue;
    }
    if (pending != nullptr) {
      pending = nullptr;
      continue;
    }
    if (!only_positionals && w == "--") {
      only_positionals = true;
      continue;
    }
    if (!only_positionals && w.size() > 1 && w[0] == '-') {
      bool inline_value = false;
      const CLI::Option* opt = FindFlag(*cmd, w, &inline_value);
      if (opt == nullptr) continue;  // Unknown: the parser will say so; keep going.
      used.insert(opt);
      if (TakesValue(*opt) && !inline_value) pending = opt;
      continue;
    }
    if (!only_positionals && positionals == 0) {
      if (const CLI::App* sub = FindSubcommand(*cmd, w)) {
        if (cmd == &app && sub->get_name() == "help") {
          help = true;
          continue;
        }
        cmd = sub;
        used.clear();
        continue;
      }
    }
    if (cmd == &app && !app.get_subcommands({}).empty()) {
      return {{}, kCompError};  // Not a command.
    }
    ++positionals;
  }

  if (help) {
    CompletionResult result;
    result.directive = kCompNoFileComp;
    for (const CLI::App* sub : cmd->get_subcommands({})) {
      if (Hidden(*sub) || sub->get_name() == "help") continue;
      AddIfPrefixed(&result, sub->get_name(), sub->get_description(), word);
    }
    return result;
  }
  if (pending != nullptr) return OptionValues(*cmd, *pending, word);
  if (!only_positionals && !word.empty() && word[0] == '-') {
    size_t eq = word.find('=');
    if (word.rfind("--", 0) == 0 && eq != std::string::npos) {
      bool inline_value = false;
      const CLI::Option* opt = FindFlag(*cmd, word, &inline_value);
      if (opt == nullptr || !TakesValue(*opt)) return {{}, kCompNoFileComp};
      return OptionValues(*cmd, *opt, std::string_view(word).substr(eq + 1));
    }
    return FlagNames(*cmd, word, used);
  }
  std::vector<const CLI::App*> subs =
      cmd->get_subcommands([](const CLI::App* sub) { return !Hidden(*sub); });
  if (!subs.empty() && positionals == 0 && !only_positionals) {
    CompletionResult result;
    result.directive = kCompNoFileComp;
    for (const CLI::App* sub : subs) {
      AddIfPrefixed(&result, sub->get_name(), sub->get_description(), word);
    }
    return result;
  }
  return PositionalValues(*cmd, positionals, word);
}

void WriteCompletion(const CompletionResult& result, bool descriptions, std::ostream& out) {
  for (const CompletionCandidate& c : result.candidates) {
    out << c.value;
    if (descriptions && !c.description.empty()) out << '\t' << c.description;
    out << '\n';
  }
  out << ':' << result.directive << '\n';
}

int RunComplete(const CLI::App& app, const CompletionRequest& request, std::ostream& out) {
  WriteCompletion(Complete(app, request.words), request.descriptions, out);
  return 0;
}

CLI::App* AddCompletionCommand(CLI::App& app, CompletionFlags* flags) {
  CLI::App* cmd = app.add_subcommand(
      "completion",
      "Print a shell completion script: bash, zsh, fish, or kubectl for kubectl_complete-jobset.");
  std::vector<std::string> shells;
  for (const auto& [shell, file] : kScripts) shells.emplace_back(shell);
  cmd->add_option("SHELL", flags->shell, "bash, zsh, fish or kubectl")
      ->required()
      ->check(CLI::IsMember(shells));
  cmd->footer(kCompletionFooter);
  return cmd;
}

const std::string* CompletionScript(std::string_view shell) {
  for (const auto& [name, file] : kScripts) {
    if (name != shell) continue;
    for (const EmbeddedFile& f : EmbeddedCompletionFiles()) {
      if (f.name == file) return &f.content();
    }
  }
  return nullptr;
}

int RunCompletion(const CompletionFlags& flags, std::ostream& out, std::ostream& err) {
  const std::string* script = CompletionScript(flags.shell);
  if (script == nullptr) {
    err << "error: no completion script for '" << flags.shell << "' (bash, zsh, fish, kubectl)\n";
    return 2;
  }
  out << *script;
  return 0;
}

}  // namespace jobset
