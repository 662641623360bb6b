// kubectl-jobset: the kubectl plugin. `kubectl jobset <command>` once on PATH.
#include <CLI/CLI.hpp>
#include <algorithm>
#include <filesystem>
#include <iostream>
#include <string>
#include <vector>

#include "cmd/completion.h"
#include "cmd/explain_command.h"
#include "cmd/lint_command.h"
#include "cmd/netcheck_command.h"
#include "cmd/render_command.h"
#include "cmd/simulate_command.h"
#include "cmd/why_command.h"
#include "validation/core/suggest.h"

namespace {

// As a kubectl plugin (argv[0] is kubectl-jobset) usage reads "kubectl jobset".
std::string ProgramName(const char* argv0) {
  std::string base = std::filesystem::path(argv0).filename().string();
  return base.rfind("kubectl-", 0) == 0 ? "kubectl " + base.substr(8) : base;
}

// The visible subcommands of `cmd` (not `help`).
std::vector<std::string> CommandNames(const CLI::App& cmd) {
  std::vector<std::string> names;
  for (const CLI::App* sub : cmd.get_subcommands(
           [](const CLI::App* s) { return !s->get_group().empty() && s->get_name() != "help"; })) {
    names.push_back(sub->get_name());
  }
  return names;
}

// Cobra's answer to an unknown command: its name, the nearest command, where to look.
int UnknownCommand(const std::string& word, const std::string& path, const CLI::App& cmd) {
  std::cerr << "error: unknown command \"" << word << "\" for \"" << path << "\"\n";
  std::string near = jobset::NearestCommand(word, CommandNames(cmd));
  if (!near.empty()) std::cerr << "\nDid you mean this?\n\t" << near << "\n";
  std::cerr << "\nRun '" << path << " --help' for usage.\n";
  return 2;
}

// Walks the leading words naming (sub)commands; at the first one that names none where a
// command is expected, reports it (CLI11 would only say "A subcommand is required"). Stops at the
// first flag. Returns 0 when every command word is known.
int CheckCommandWords(const CLI::App& app, const std::string& prog, int argc, char** argv) {
  const CLI::App* cmd = &app;
  std::string path = prog;
  for (int i = 1; i < argc; ++i) {
    std::string word = argv[i];
    if (word.empty() || word[0] == '-') return 0;
    if (cmd->get_subcommands({}).empty()) return 0;  // a positional argument
    std::vector<const CLI::App*> subs =
        cmd->get_subcommands([&](const CLI::App* s) { return s->check_name(word); });
    if (subs.empty()) return UnknownCommand(word, path, *cmd);
    cmd = subs.front();
    path += " " + cmd->get_name();
    if (cmd->get_name() == "help") return 0;  // its arguments are checked when it runs
  }
  return 0;
}

// `help [COMMAND...]`: the help of that command, as `COMMAND --help` prints it.
int RunHelp(const CLI::App& app, const std::string& prog, const std::vector<std::string>& words) {
  const CLI::App* cmd = &app;
  std::string prev;  // the command path before `cmd`, as CLI11's help(prev) wants it
  std::string path = prog;
  for (const std::string& word : words) {
    std::vector<const CLI::App*> subs = cmd->get_subcommands(
        [&](const CLI::App* s) { return !s->get_group().empty() && s->check_name(word); });
    if (subs.empty() || subs.front()->get_name() == "help") return UnknownCommand(word, path, *cmd);
    prev = path;
    cmd = subs.front();
    path += " " + cmd->get_name();
  }
  // The app's own help(), with `help` selected, would print that command's.
  std::cout << (cmd == &app ? app.get_formatter()->make_help(&app, prog, CLI::AppFormatMode::Normal)
                            : cmd->help(prev));
  return 0;
}

}  // namespace

int main(int argc, char** argv) {
  std::string prog = ProgramName(argv[0]);
  CLI::App app{
      "Validate, explain and simulate failure policies of JobSets, Volcano Jobs and "
      "FrameworkController Frameworks before they run.",
      prog};
  app.require_subcommand(1);
  app.set_version_flag("--version", std::string(JOBSET_VERSION));
  // A flag given twice takes the last value, as kubectl's flags do (repeatable flags keep all).
  app.option_defaults()->multi_option_policy(CLI::MultiOptionPolicy::TakeLast);

  jobset::LintFlags lint;
  CLI::App* lint_cmd = jobset::AddLintCommand(app, &lint);
  jobset::ExplainFlags explain;
  CLI::App* explain_cmd = jobset::AddExplainCommand(app, &explain);
  jobset::SimulateFlags sim;
  CLI::App* sim_cmd = jobset::AddSimulateCommand(app, &sim);
  jobset::RenderFlags render;
  CLI::App* render_cmd = jobset::AddRenderCommand(app, &render);
  jobset::WhyFlags why;
  CLI::App* why_cmd = jobset::AddWhyCommand(app, &why);
  jobset::NetcheckPlanFlags plan;
  jobset::NetcheckDiagnoseFlags diagnose;
  jobset::NetcheckCommands netcheck = jobset::AddNetcheckCommand(app, &plan, &diagnose);
  CLI::App* version_cmd = app.add_subcommand("version", "Print the version");
  std::string version_output = "text";
  version_cmd->add_option("-o,--output", version_output, "Output format")
      ->check(CLI::IsMember({"text", "json"}))
      ->capture_default_str();

  std::vector<std::string> help_words;
  CLI::App* help_cmd = app.add_subcommand("help", "Help about any command");
  help_cmd->add_option("COMMAND", help_words, "The command (and subcommand), e.g. lint");

  jobset::CompletionFlags completion;
  CLI::App* completion_cmd = jobset::AddCompletionCommand(app, &completion);
  // The hidden `__complete` (Cobra's protocol, for the scripts and kubectl_complete-jobset).
  if (auto request = jobset::FindCompletionRequest(argc, argv)) {
    return jobset::RunComplete(app, *request, std::cout);
  }

  if (int status = CheckCommandWords(app, prog, argc, argv)) return status;
  try {
    app.parse(argc, argv);
  } catch (const CLI::CallForHelp& e) {
    return app.exit(e);
  } catch (const CLI::CallForAllHelp& e) {
    return app.exit(e);
  } catch (const CLI::CallForVersion& e) {
    return app.exit(e);
  } catch (const CLI::ParseError& e) {
    app.exit(e);
    return 2;
  }
  if (version_cmd->parsed()) {
    if (version_output == "json") {
      std::cout << "{\"version\": \"" << JOBSET_VERSION << "\"}\n";
    } else {
      std::cout << "kubectl-jobset " << JOBSET_VERSION << "\n";
    }
    return 0;
  }
  if (help_cmd->parsed()) return RunHelp(app, prog, help_words);
  if (completion_cmd->parsed()) return jobset::RunCompletion(completion, std::cout, std::cerr);
  if (lint_cmd->parsed()) return jobset::RunLint(lint, std::cout, std::cerr);
  if (explain_cmd->parsed()) return jobset::RunExplain(explain, std::cout, std::cerr);
  if (sim_cmd->parsed()) return jobset::RunSimulate(sim, std::cout, std::cerr);
  if (render_cmd->parsed()) return jobset::RunRender(render, std::cout, std::cerr);
  if (why_cmd->parsed()) return jobset::RunWhy(why, std::cout, std::cerr);
  if (netcheck.plan->parsed()) return jobset::RunNetcheckPlan(plan, std::cout, std::cerr);
  if (netcheck.diagnose->parsed())
    return jobset::RunNetcheckDiagnose(diagnose, std::cout, std::cerr);
  return 2;
}
