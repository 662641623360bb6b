# fish completion for kubectl-jobset.
#
# Use it for this session:  kubectl-jobset completion fish | source
# or install it:
#   kubectl-jobset completion fish > ~/.config/fish/completions/kubectl-jobset.fish
#
# The candidates come from `kubectl-jobset __complete WORDS... CURRENT` (Cobra's protocol): one a
# line, optionally a TAB and a description, then a last line ":DIRECTIVE" whose bits are
# 1 error, 2 no space, 4 no file completion, 8 the candidates are file extensions,
# 16 directories only, 32 keep the order (not honoured here: fish sorts).

# Prints the candidates for the command line. Fails when fish should complete files by itself.
function __kubectl_jobset_candidates
    set -l tokens (commandline -opc)
    set -l current (commandline -ct)
    set -l out ($tokens[1] __complete $tokens[2..-1] "$current" 2>/dev/null)
    or return 0
    set -l directive 0
    if string match -qr -- '^:[0-9]+$' "$out[-1]"
        set directive (string sub -s 2 -- $out[-1])
        set -e out[-1]
    end
    if test (math "bitand($directive, 1)") -ne 0
        return 0
    end

    if test (math "bitand($directive, 8)") -ne 0
        # Folders, and the files with one of the extensions the program listed.
        set -l extensions (string replace -r -- '\t.*' '' $out | string escape --style=regex)
        set -l pattern '(/|\.('(string join '|' -- $extensions)'))$'
        for file in (complete -C"__kubectl_jobset_no_such_command $current")
            set file (string replace -r -- '\t.*' '' $file)
            string match -qr -- $pattern $file; and printf '%s\n' $file
        end
        return 0
    end
    if test (math "bitand($directive, 16)") -ne 0
        __fish_complete_directories $current
        return 0
    end

    if test (count $out) -eq 0
        test (math "bitand($directive, 4)") -ne 0
        return
    end
    # For --flag=value the program answers with values: put the flag back in front.
    set -l flag (string match -r -- '^-[^=]*=' $current)
    set -l matches
    set -l prefix '^'(string escape --style=regex -- "$current")
    for line in $out
        string match -qr -- $prefix "$flag$line"; and set -a matches "$flag$line"
    end
    printf '%s\n' $matches
    # No space after the only candidate: fish adds none while a longer candidate also matches.
    if test (math "bitand($directive, 2)") -ne 0; and test (count $matches) -eq 1
        printf '%s.\n' (string replace -r -- '\t.*' '' $matches[1])
    end
    return 0
end

# Computes the candidates once; false lets fish complete files.
function __kubectl_jobset_prepare
    set -g __kubectl_jobset_results (__kubectl_jobset_candidates)
end

complete -c kubectl-jobset -e
complete -c kubectl-jobset -n __kubectl_jobset_prepare -f -a '$__kubectl_jobset_results'
