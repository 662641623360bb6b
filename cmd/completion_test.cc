#include "cmd/completion.h"

#include <doctest/doctest.h>

#include <CLI/CLI.hpp>
#include <fstream>
#include <sstream>

#include "cmd/lint_command.h"
#include "validation/jobset/feature_gates.h"

namespace jobset {
namespace {

/// The command-line shape of cmd/main.cc, built the same way: the options completion reads.
struct TestApp {
  CLI::App app{"test", "kubectl-jobset"};
  std::vector<std::string> paths, outputs, fail, help;
  std::string path, config, gates, fail_on = "error", crd, color = "auto", scenario, plot;
  std::string explain_output = "text", version_output = "text";
  bool recursive = false;
  int jobs = 0, runs = 0;
  CompletionFlags completion;

  TestApp() {
    app.set_version_flag("--version", std::string("0"));
    CLI::App* lint = app.add_subcommand("lint", "Check manifests");
    lint->add_option("PATH", paths, "Files");
    lint->add_flag("-R,--recursive", recursive, "Descend into directories");
    lint->add_option("-o,--output", outputs, "Output format")->allow_extra_args(false);
    lint->add_option("--config", config, "Config file");
    lint->add_option("--feature-gates", gates, "JobSet feature gates");
    lint->add_option("--fail-on", fail_on, "Lowest severity")
        ->check(CLI::IsMember({"error", "warning", "info"}));
    lint->add_option("--crd", crd, "A CRD file");
    lint->add_option("--color", color, "Colour")->check(CLI::IsMember({"auto", "always", "never"}));
    lint->add_option("-j,--jobs", jobs, "Threads");
    CLI::App* explain = app.add_subcommand("explain", "Explain a policy");
    explain->add_option("PATH", path, "A manifest")->required();
    explain->add_option("-o,--output", explain_output, "Output format")
        ->check(CLI::IsMember({"text", "json", "markdown"}));
    CLI::App* simulate = app.add_subcommand("simulate", "Replay failures");
    simulate->add_option("PATH", paths, "Manifests");
    simulate->add_option("--fail", fail, "RJOB/INDEX:REASON");
    simulate->add_option("--scenario", scenario, "Steps file");
    simulate->add_option("--plot", plot, "SVG chart");
    simulate->add_option("--runs", runs, "Runs");
    app.add_subcommand("version", "Print the version")
        ->add_option("-o,--output", version_output, "Output format")
        ->check(CLI::IsMember({"text", "json"}));
    app.add_subcommand("help", "Help about any command")->add_option("COMMAND", help, "A command");
    AddCompletionCommand(app, &completion);
    app.add_subcommand("secret", "Hidden")->group("");
  }

  /// Completes `words` (the last is the word under the cursor).
  CompletionResult Run(std::vector<std::string> words) const { return Complete(app, words); }
};

/// The candidates' values.
std::vector<std::string> Values(const CompletionResult& result) {
  std::vector<std::string> out;
  for (const CompletionCandidate& c : result.candidates) out.push_back(c.value);
  return out;
}

/// Whether `values` holds `value`.
bool Has(const std::vector<std::string>& values, const std::string& value) {
  return std::find(values.begin(), values.end(), value) != values.end();
}

TEST_CASE("completion: the subcommands at the root, with descriptions, hidden ones left out") {
  TestApp t;
  CompletionResult r = t.Run({""});
  CHECK(Values(r) ==
        std::vector<std::string>{"lint", "explain", "simulate", "version", "help", "completion"});
  CHECK(r.candidates[0].description == "Check manifests");
  CHECK(r.directive == kCompNoFileComp);
  CHECK(Values(t.Run({})) == Values(r));  // No word at all: as an empty one.
  CHECK(Values(t.Run({"li"})) == std::vector<std::string>{"lint"});
  CHECK(t.Run({"zz"}).candidates.empty());
}

TEST_CASE("completion: help takes commands, not files") {
  TestApp t;
  CompletionResult r = t.Run({"help", ""});
  CHECK(Values(r) ==
        std::vector<std::string>{"lint", "explain", "simulate", "version", "completion"});
  CHECK(r.directive == kCompNoFileComp);
  CHECK(Values(t.Run({"help", "si"})) == std::vector<std::string>{"simulate"});
  CHECK(t.Run({"help", "lint", ""}).candidates.empty());  // lint has no subcommands
  CHECK(t.Run({"help", "lint", ""}).directive == kCompNoFileComp);
  CHECK(t.Run({"help", "nope", ""}).directive == kCompNoFileComp);
}

TEST_CASE("completion: an unknown command is an error") {
  TestApp t;
  CompletionResult r = t.Run({"lnit", ""});
  CHECK(r.candidates.empty());
  CHECK(r.directive == kCompError);
}

TEST_CASE("completion: flags, short ones only for a lone dash, given ones not offered again") {
  TestApp t;
  std::vector<std::string> dash = Values(t.Run({"lint", "-"}));
  CHECK(Has(dash, "-R"));
  CHECK(Has(dash, "--recursive"));
  CHECK(Has(dash, "-o"));
  CHECK(Has(dash, "--help"));
  CHECK_FALSE(Has(dash, "PATH"));
  std::vector<std::string> long_only = Values(t.Run({"lint", "--"}));
  CHECK(Has(long_only, "--crd"));
  CHECK_FALSE(Has(long_only, "-R"));
  CHECK(Values(t.Run({"lint", "--fa"})) == std::vector<std::string>{"--fail-on"});
  CHECK(t.Run({"lint", "--fa"}).directive == kCompNoFileComp);
  CHECK(t.Run({"lint", "--fa"}).candidates[0].description == "Lowest severity");
  // --crd given: not again; -o is repeatable: still there.
  std::vector<std::string> after = Values(t.Run({"lint", "--crd", "c.yaml", "-o", "json", "--"}));
  CHECK_FALSE(Has(after, "--crd"));
  CHECK(Has(after, "--output"));
  CHECK(Values(t.Run({"-"})) == std::vector<std::string>{"--help", "-h", "--version"});
}

TEST_CASE("completion: enumerated values from the validators, also as --flag=value") {
  TestApp t;
  CompletionResult r = t.Run({"lint", "--color", ""});
  CHECK(Values(r) == std::vector<std::string>{"auto", "always", "never"});
  CHECK(r.directive == kCompNoFileComp);
  CHECK(Values(t.Run({"lint", "--fail-on", "w"})) == std::vector<std::string>{"warning"});
  CHECK(Values(t.Run({"lint", "-R", "--fail-on", "w"})) == std::vector<std::string>{"warning"});
  // Cobra's convention: for --flag=prefix the answer is the values alone.
  CHECK(Values(t.Run({"lint", "--fail-on=i"})) == std::vector<std::string>{"info"});
  CHECK(Values(t.Run({"explain", "-o", ""})) ==
        std::vector<std::string>{"text", "json", "markdown"});
  CHECK(Values(t.Run({"version", "--output", "j"})) == std::vector<std::string>{"json"});
  CHECK(Values(t.Run({"completion", ""})) ==
        std::vector<std::string>{"bash", "zsh", "fish", "kubectl"});
  // A flag's value is not a subcommand or a positional.
  CHECK(Values(t.Run({"lint", "--color", "never", ""})) ==
        std::vector<std::string>{"yaml", "yml", "json"});
}

TEST_CASE("completion: lint -o lists exactly the formats lint accepts") {
  TestApp t;
  std::vector<std::string> offered = Values(t.Run({"lint", "-o", ""}));
  REQUIRE_FALSE(offered.empty());
  // lint's own message for an unknown format lists them: "(text, json, ...; FORMAT=FILE ...)".
  LintFlags flags;
  flags.outputs = {"no-such-format"};
  flags.paths = {"/nonexistent-dir/a.yaml"};
  std::ostringstream out, err;
  CHECK(RunLint(flags, out, err) == 2);
  std::string message = err.str();
  size_t open = message.find('('), semicolon = message.find(';', open);
  REQUIRE(semicolon != std::string::npos);
  std::vector<std::string> accepted;
  std::istringstream list(message.substr(open + 1, semicolon - open - 1));
  for (std::string item; std::getline(list, item, ',');) {
    accepted.push_back(item.substr(item.find_first_not_of(' ')));
  }
  CHECK(offered == accepted);
  for (const std::string& format : offered) {
    flags.outputs = {format + "=/nonexistent-dir/x"};
    std::ostringstream out2, err2;
    RunLint(flags, out2, err2);
    CHECK(err2.str().find("unknown format") == std::string::npos);
  }
  // FORMAT=FILE: the file part is left to the shell's file completion.
  CompletionResult file = t.Run({"lint", "-o", "sarif="});
  CHECK(file.candidates.empty());
  CHECK(file.directive == kCompDefault);
}

TEST_CASE("completion: feature gates, no space after them, comma lists, as the parser knows them") {
  TestApp t;
  CompletionResult r = t.Run({"lint", "--feature-gates", "Res"});
  CHECK(Values(r) == std::vector<std::string>{"RestartJob=true", "RestartJob=false"});
  CHECK(r.directive == (kCompNoSpace | kCompNoFileComp));
  std::vector<std::string> next = Values(t.Run({"lint", "--feature-gates", "RestartJob=true,"}));
  CHECK(Has(next, "RestartJob=true,InPlaceRestart=true"));
  CHECK_FALSE(Has(next, "RestartJob=true,RestartJob=true"));
  CHECK(Values(t.Run({"lint", "--feature-gates=In"})) ==
        std::vector<std::string>{"InPlaceRestart=true", "InPlaceRestart=false"});
  // Every gate offered parses, and together they switch on every gate FeatureGates has.
  std::string all;
  for (const std::string& v : Values(t.Run({"lint", "--feature-gates", ""}))) {
    if (v.find("=true") == std::string::npos) continue;
    all += (all.empty() ? "" : ",") + v;
  }
  FeatureGates gates;
  std::string error;
  CHECK(ParseFeatureGates(all, &gates, &error));
  CHECK(FormatFeatureGates(gates) == all);
  static_assert(sizeof(FeatureGates) == 3 * sizeof(bool),
                "a feature gate was added: list it in kFeatureGates (cmd/completion.cc)");
}

TEST_CASE("completion: files by extension for PATH, --crd, --scenario, --config and --plot") {
  TestApp t;
  CompletionResult path = t.Run({"lint", ""});
  CHECK(Values(path) == std::vector<std::string>{"yaml", "yml", "json"});
  CHECK(path.directive == kCompFilterFileExt);
  CHECK(Values(t.Run({"lint", "-R", "a.yaml", ""})) == Values(path));  // PATH repeats.
  CHECK(t.Run({"lint", "--crd", ""}).directive == kCompFilterFileExt);
  CHECK(t.Run({"lint", "--crd=cr"}).directive == kCompFilterFileExt);
  CHECK(Values(t.Run({"lint", "--config", ""})) == std::vector<std::string>{"yaml", "yml"});
  CHECK(Values(t.Run({"simulate", "--scenario", ""})) == Values(path));
  CHECK(Values(t.Run({"simulate", "--plot", ""})) == std::vector<std::string>{"svg"});
  // Values that are not files: nothing, and no file completion either.
  CHECK(t.Run({"simulate", "--runs", ""}).directive == kCompNoFileComp);
  CHECK(t.Run({"simulate", "--fail", ""}).directive == kCompNoFileComp);
}

TEST_CASE("completion: positionals run out, and -- ends the flags") {
  TestApp t;
  CHECK(t.Run({"explain", ""}).directive == kCompFilterFileExt);
  CompletionResult done = t.Run({"explain", "a.yaml", ""});
  CHECK(done.candidates.empty());
  CHECK(done.directive == kCompNoFileComp);
  CHECK(t.Run({"explain", "-o", "json", ""}).directive == kCompFilterFileExt);
  CHECK(t.Run({"version", ""}).directive == kCompNoFileComp);
  CHECK(t.Run({"lint", "--", "-"}).directive == kCompFilterFileExt);
  CHECK(t.Run({"completion", "bash", ""}).candidates.empty());
}

TEST_CASE("completion: Cobra's output format") {
  CompletionResult r{{{"lint", "Check\tmanifests"}, {"json", ""}}, kCompNoFileComp};
  r.candidates[0].description = "Check manifests";
  std::ostringstream with, without;
  WriteCompletion(r, true, with);
  WriteCompletion(r, false, without);
  CHECK(with.str() == "lint\tCheck manifests\njson\n:4\n");
  CHECK(without.str() == "lint\njson\n:4\n");
  std::ostringstream empty;
  WriteCompletion({}, true, empty);
  CHECK(empty.str() == ":0\n");
  // Descriptions stay on one line.
  TestApp t;
  for (const CompletionCandidate& c : t.Run({"lint", "-"}).candidates) {
    CHECK(c.description.find_first_of("\t\n") == std::string::npos);
  }
}

TEST_CASE("completion: requests from __complete, __completeNoDesc and kubectl_complete-jobset") {
  const char* plain[] = {"kubectl-jobset", "lint", "x"};
  CHECK_FALSE(FindCompletionRequest(3, plain).has_value());
  const char* cobra[] = {"/usr/bin/kubectl-jobset", "__complete", "lint", ""};
  auto request = FindCompletionRequest(4, cobra);
  REQUIRE(request.has_value());
  CHECK(request->words == std::vector<std::string>{"lint", ""});
  CHECK(request->descriptions);
  const char* no_desc[] = {"kubectl-jobset", "__completeNoDesc", "li"};
  request = FindCompletionRequest(3, no_desc);
  REQUIRE(request.has_value());
  CHECK_FALSE(request->descriptions);
  const char* kubectl[] = {"/opt/krew/bin/kubectl_complete-jobset", "lint", "--o"};
  request = FindCompletionRequest(3, kubectl);
  REQUIRE(request.has_value());
  CHECK(request->words == std::vector<std::string>{"lint", "--o"});
  const char* alone[] = {"kubectl-jobset"};
  CHECK_FALSE(FindCompletionRequest(1, alone).has_value());

  TestApp t;
  std::ostringstream out;
  CHECK(RunComplete(t.app, {{"ver"}, true}, out) == 0);
  CHECK(out.str() == "version\tPrint the version\n:4\n");
}

TEST_CASE("completion: the printed scripts are the files of completions/") {
  for (const auto& [shell, file] :
       std::vector<std::pair<std::string, std::string>>{{"bash", "kubectl-jobset.bash"},
                                                        {"zsh", "_kubectl-jobset"},
                                                        {"fish", "kubectl-jobset.fish"},
                                                        {"kubectl", "kubectl_complete-jobset"}}) {
    CAPTURE(shell);
    std::ifstream in(std::string(JOBSET_SOURCE_DIR) + "/completions/" + file, std::ios::binary);
    REQUIRE(in);
    std::ostringstream content;
    content << in.rdbuf();
    CompletionFlags flags{shell};
    std::ostringstream out, err;
    CHECK(RunCompletion(flags, out, err) == 0);
    CHECK(out.str() == content.str());
    CHECK(out.str().find("__complete") != std::string::npos);
  }
  CompletionFlags powershell{"powershell"};
  std::ostringstream out, err;
  CHECK(RunCompletion(powershell, out, err) == 2);
  CHECK(err.str().find("powershell") != std::string::npos);
  CHECK(CompletionScript("tcsh") == nullptr);
}

}  // namespace
}  // namespace jobset
