#!/usr/bin/env bash
# Shell completion through the real shells: bash (the completion function with COMP_WORDS set as
# readline sets them, then readline itself on a pseudo-terminal), zsh and fish, and
# `kubectl jobset <TAB>` through kubectl's plugin completion (kubectl >= 1.26).
# Usage: completion_test.sh KUBECTL_JOBSET_BINARY SOURCE_DIR
# A part whose tool is missing prints "SKIP: ..."; the exit status is 77 when every part skips.
#
# Interactive shells run under script(1); each test line is typed with its TABs, then ^A and
# "echo RESULT: " are typed before Enter, so the shell prints the completed line instead of
# running it. Readline and zle handle keys in order, so no sleeps are needed.
set -u
bin=$1
src=$2
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
mkdir -p "$tmp/bin" "$tmp/home/.config" "$tmp/work" "$tmp/zfunc" "$tmp/zdot" "$tmp/symlink"
ln -s "$bin" "$tmp/bin/kubectl-jobset"
cp "$src/completions/kubectl_complete-jobset" "$tmp/bin/"
export PATH="$tmp/bin:$PATH" HOME="$tmp/home" XDG_CONFIG_HOME="$tmp/home/.config" NO_COLOR=1
export TERM=dumb INPUTRC=/dev/null
unset BASH_ENV ENV ZDOTDIR
cd "$tmp/work" || exit 1
touch train.yaml notes.txt chart.svg

pass=0
fail=0
ran=0
check() {  # NAME WANT GOT
  if [ "$2" == "$3" ]; then
    pass=$((pass + 1))
  else
    fail=$((fail + 1))
    printf 'FAIL: %s\n  want: %q\n  got:  %q\n' "$1" "$2" "$3"
  fi
}

# Types each argument into the interactive shell "$@" after the first (the shell command line)
# and prints the "RESULT: " lines it echoes, one per typed line.
type_into() {
  local shell=$1 input="" line
  shift
  for line in "$@"; do input+="$line"$'\x01'"echo RESULT: "$'\n'; done
  input+=$'exit\n'
  printf '%s' "$input" | timeout 60 script -q -c "$shell" /dev/null 2>/dev/null |
    tr -d '\r' | grep -a '^RESULT: ' | sed 's/^RESULT: //'
}
# script(1) needs a pseudo-terminal.
have_script=0
if command -v script >/dev/null 2>&1 &&
   echo | timeout 10 script -q -c 'echo pty-ok' /dev/null 2>/dev/null | tr -d '\r' | grep -qx pty-ok
then
  have_script=1
fi

# --- The binary: scripts printed, protocol, kubectl_complete-jobset as a symlink ------------
for pair in bash:kubectl-jobset.bash zsh:_kubectl-jobset fish:kubectl-jobset.fish \
            kubectl:kubectl_complete-jobset; do
  shell=${pair%%:*}
  file=${pair#*:}
  if kubectl-jobset completion "$shell" | cmp -s - "$src/completions/$file"; then
    check "completion $shell prints completions/$file" same same
  else
    check "completion $shell prints completions/$file" same different
  fi
done
check "__complete: subcommands and the directive" $'lint\n:4' \
  "$(kubectl-jobset __complete li | cut -f1)"
check "__complete: a description after a TAB" 1 \
  "$(kubectl-jobset __complete li | grep -c $'^lint\t.')"
check "__completeNoDesc" $'warning\n:4' "$(kubectl-jobset __completeNoDesc lint --fail-on w)"
check "__complete: files by extension" $'yaml\nyml\njson\n:8' "$(kubectl-jobset __complete lint '')"
ln -s "$bin" "$tmp/symlink/kubectl_complete-jobset"
check "kubectl_complete-jobset as a symlink to the binary" $'json\n:4' \
  "$("$tmp/symlink/kubectl_complete-jobset" explain -o js | cut -f1)"
check "kubectl_complete-jobset script" "$(kubectl-jobset __complete lint --c)" \
  "$(kubectl_complete-jobset lint --c)"

# --- bash -----------------------------------------------------------------------------------
# Completes LINE (cursor at its end) with the function the script registers, COMP_WORDS split as
# readline splits them (at blanks, and at '=' and ':' which stand alone). Prints COMPREPLY as
# "a|b|" and, in parentheses, the compopt options the function set.
bash_complete() {
  bash --noprofile --norc -c '
    source "$1"
    compopt() { opts+=" $*"; }
    COMP_LINE=$2
    COMP_POINT=${#COMP_LINE}
    COMP_WORDS=()
    word=""
    for ((i = 0; i < ${#COMP_LINE}; i++)); do
      ch=${COMP_LINE:i:1}
      case $ch in
        " ") [[ -n $word ]] && COMP_WORDS+=("$word"); word="" ;;
        "=" | ":") [[ -n $word ]] && COMP_WORDS+=("$word"); COMP_WORDS+=("$ch"); word="" ;;
        *) word+=$ch ;;
      esac
    done
    if [[ -n $word ]]; then
      COMP_WORDS+=("$word")
    elif [[ $COMP_LINE == *" " ]]; then
      COMP_WORDS+=("")
    fi
    COMP_CWORD=$((${#COMP_WORDS[@]} - 1))
    __kubectl_jobset_complete
    ((${#COMPREPLY[@]})) && printf "%s|" "${COMPREPLY[@]}"
    printf "(%s)\n" "${opts# }"
  ' bash_complete "$src/completions/kubectl-jobset.bash" "$1"
}

if command -v bash >/dev/null 2>&1; then
  ran=$((ran + 1))
  check "bash: subcommand" "lint|()" "$(bash_complete 'kubectl-jobset li')"
  check "bash: all subcommands" "lint|explain|simulate|render|why|netcheck|version|help|completion|()" \
    "$(bash_complete 'kubectl-jobset ')"
  check "bash: netcheck subcommands" "plan|diagnose|()" \
    "$(bash_complete 'kubectl-jobset netcheck ')"
  check "bash: netcheck plan flag" "--node-groups|()" \
    "$(bash_complete 'kubectl-jobset netcheck plan --node-')"
  check "bash: why flags" "--kubeconfig|()" "$(bash_complete 'kubectl-jobset why --kube')"
  check "bash: why -o" "text|json|markdown|()" "$(bash_complete 'kubectl-jobset why -o ')"
  mkdir -p "$tmp/dumps" && touch "$tmp/dumps/dump.json" "$tmp/dumps/train.yaml"
  check "bash: why -f takes a JSON dump" "dump.json|(-o filenames)" \
    "$(cd "$tmp/dumps" && bash_complete 'kubectl-jobset why -f ')"
  check "bash: flag" "--fail-on|()" "$(bash_complete 'kubectl-jobset lint --fail-o')"
  check "bash: help COMMAND" "plan|()" "$(bash_complete 'kubectl-jobset help netcheck pl')"
  check "bash: --fix and --diff" "--fix|()" "$(bash_complete 'kubectl-jobset lint --diff --fi')"
  check "bash: value after a flag that takes none" "warning|()" \
    "$(bash_complete 'kubectl-jobset lint -R --fail-on w')"
  check "bash: --output=VALUE (bash replaces the part after '=')" "json|()" \
    "$(bash_complete 'kubectl-jobset lint --output=js')"
  check "bash: feature gate, no space" "true|(-o nospace)" \
    "$(bash_complete 'kubectl-jobset lint --feature-gates RestartJob=t')"
  check "bash: feature gate names" "InPlaceRestart=true|InPlaceRestart=false|(-o nospace)" \
    "$(bash_complete 'kubectl-jobset lint --feature-gates In')"
  check "bash: manifests only" "train.yaml|(-o filenames)" "$(bash_complete 'kubectl-jobset lint ')"
  check "bash: --crd=FILE" "train.yaml|(-o filenames)" \
    "$(bash_complete 'kubectl-jobset lint --crd=')"
  check "bash: --plot takes an SVG" "chart.svg|(-o filenames)" \
    "$(bash_complete 'kubectl-jobset simulate --plot ')"
  check "bash: a number: nothing, no files" "()" \
    "$(bash_complete 'kubectl-jobset simulate --runs ')"
  check "bash: -o FORMAT=FILE: default file completion" "(-o default)" \
    "$(bash_complete 'kubectl-jobset lint -o sarif=')"
  check "bash: completion shells" "bash|zsh|fish|kubectl|()" \
    "$(bash_complete 'kubectl-jobset completion ')"

  if [ "$have_script" = 1 ]; then
    want=$'kubectl-jobset lint -R --fail-on warning --crd=train.yaml
kubectl-jobset lint --feature-gates RestartJob=true,InPlaceRestart=
kubectl-jobset lint --output=json
kubectl-jobset lint train.yaml
kubectl-jobset simulate --plot chart.svg'
    lines=($'kubectl-jobset li\t-R --fail-on w\t--crd=tr\t'
           $'kubectl-jobset lint --feature-gates RestartJob=t\t,In\t'
           $'kubectl-jobset lint --output=js\t'
           $'kubectl-jobset lint \t'
           $'kubectl-jobset simulate --plot \t')
    printf 'PS1="$ "\nsource %q\n' "$src/completions/kubectl-jobset.bash" > "$tmp/bashrc"
    check "bash readline" "$want" \
      "$(type_into "bash --noprofile --rcfile $tmp/bashrc -i" "${lines[@]}")"
    if [ -f /usr/share/bash-completion/bash_completion ]; then
      printf 'PS1="$ "\nsource /usr/share/bash-completion/bash_completion\nsource %q\n' \
        "$src/completions/kubectl-jobset.bash" > "$tmp/bashrc-bc"
      check "bash readline with bash-completion loaded" "$want" \
        "$(type_into "bash --noprofile --rcfile $tmp/bashrc-bc -i" "${lines[@]}")"
    else
      echo "SKIP: bash-completion is not installed (bash readline with it loaded)"
    fi
  else
    echo "SKIP: script(1) or a pseudo-terminal is missing (bash readline)"
  fi
else
  echo "SKIP: bash is not installed"
fi

# --- zsh ------------------------------------------------------------------------------------
if command -v zsh >/dev/null 2>&1 && [ "$have_script" = 1 ]; then
  ran=$((ran + 1))
  want=$'kubectl-jobset lint -R --fail-on warning
kubectl-jobset lint --output=json
kubectl-jobset lint --feature-gates RestartJob=true,InPlaceRestart=
kubectl-jobset lint train.yaml
kubectl-jobset lint --crd=train.yaml
kubectl-jobset lint -o sarif=train.yaml
kubectl-jobset simulate --plot chart.svg
kubectl-jobset simulate --runs
kubectl-jobset completion fish'
  lines=($'kubectl-jobset li\t-R --fail-on w\t'
         $'kubectl-jobset lint --output=js\t'
         $'kubectl-jobset lint --feature-gates RestartJob=t\t,In\t'
         $'kubectl-jobset lint \t'
         $'kubectl-jobset lint --crd=\t'
         $'kubectl-jobset lint -o sarif=t\t'
         $'kubectl-jobset simulate --plot \t'
         $'kubectl-jobset simulate --runs \t'
         $'kubectl-jobset completion f\t')
  # Sourced after compinit, as `source <(kubectl-jobset completion zsh)` does.
  printf 'PS1="%%%% "\nbindkey -e\nautoload -Uz compinit && compinit -u -D\nsource %q\n' \
    "$src/completions/_kubectl-jobset" > "$tmp/zdot/.zshrc"
  check "zsh (sourced)" "$want" "$(ZDOTDIR=$tmp/zdot type_into "zsh -d -i" "${lines[@]}")"
  # Autoloaded from $fpath through its #compdef line.
  cp "$src/completions/_kubectl-jobset" "$tmp/zfunc/"
  printf 'PS1="%%%% "\nbindkey -e\nfpath=(%q $fpath)\nautoload -Uz compinit && compinit -u -D\n' \
    "$tmp/zfunc" > "$tmp/zdot/.zshrc"
  check "zsh (autoloaded from fpath)" "$want" \
    "$(ZDOTDIR=$tmp/zdot type_into "zsh -d -i" "${lines[@]}")"
elif command -v zsh >/dev/null 2>&1; then
  echo "SKIP: script(1) or a pseudo-terminal is missing (zsh)"
else
  echo "SKIP: zsh is not installed"
fi

# --- fish -----------------------------------------------------------------------------------
# Prints fish's candidates for LINE (descriptions cut), space-separated.
fish_complete() {
  fish --no-config -c "source $(printf '%q' "$src/completions/kubectl-jobset.fish");
    complete -C '$1'" | cut -f1 | tr '\n' ' ' | sed 's/ $//'
}
if command -v fish >/dev/null 2>&1; then
  ran=$((ran + 1))
  check "fish: subcommand" "lint" "$(fish_complete 'kubectl-jobset li')"
  check "fish: descriptions" "$(kubectl-jobset __complete li | head -1)" \
    "$(fish --no-config -c "source $(printf '%q' "$src/completions/kubectl-jobset.fish");
      complete -C 'kubectl-jobset li'")"
  check "fish: flag" "--fail-on" "$(fish_complete 'kubectl-jobset lint --fail-o')"
  check "fish: --fix" "--fix" "$(fish_complete 'kubectl-jobset lint --diff --fi')"
  check "fish: --diff" "--diff" "$(fish_complete 'kubectl-jobset lint --di')"
  check "fish: values" "error info warning" "$(fish_complete 'kubectl-jobset lint -R --fail-on ')"
  check "fish: --output=VALUE" "--output=json --output=junit" \
    "$(fish_complete 'kubectl-jobset lint --output=j')"
  check "fish: manifests only" "train.yaml" "$(fish_complete 'kubectl-jobset lint ')"
  check "fish: --crd=FILE" "--crd=train.yaml" "$(fish_complete 'kubectl-jobset lint --crd=')"
  check "fish: --plot takes an SVG" "chart.svg" "$(fish_complete 'kubectl-jobset simulate --plot ')"
  check "fish: a number: nothing, no files" "" "$(fish_complete 'kubectl-jobset simulate --runs ')"
  # No space: a second, longer candidate keeps fish from finishing the word.
  check "fish: feature gate, no space" "RestartJob=true RestartJob=true." \
    "$(fish_complete 'kubectl-jobset lint --feature-gates RestartJob=t')"
else
  echo "SKIP: fish is not installed"
fi

# --- kubectl --------------------------------------------------------------------------------
kubectl_minor() {
  kubectl version --client -o json 2>/dev/null |
    sed -n 's/.*"minor": *"\([0-9]*\).*/\1/p' | head -1
}
if ! command -v kubectl >/dev/null 2>&1; then
  echo "SKIP: kubectl is not installed"
elif [ "$(kubectl_minor)" -lt 26 ] 2>/dev/null || [ -z "$(kubectl_minor)" ]; then
  echo "SKIP: kubectl $(kubectl_minor) has no plugin completion (needs 1.26)"
else
  ran=$((ran + 1))
  check "kubectl __complete jobset li" $'lint\n:4' \
    "$(kubectl __complete jobset li 2>/dev/null | cut -f1)"
  check "kubectl __complete jobset lint --fail-on ''" $'error\nwarning\ninfo\n:4' \
    "$(kubectl __complete jobset lint --fail-on '' 2>/dev/null | cut -f1)"
  check "kubectl __complete jobset lint ''" $'yaml\nyml\njson\n:8' \
    "$(kubectl __complete jobset lint '' 2>/dev/null)"
  want=$'kubectl jobset lint --fail-on warning\nkubectl jobset lint train.yaml'
  if [ "$have_script" = 1 ] && [ -f /usr/share/bash-completion/bash_completion ]; then
    printf 'PS1="$ "\nsource /usr/share/bash-completion/bash_completion\n%s\n' \
      'source <(kubectl completion bash)' > "$tmp/kubectl-bashrc"
    check "kubectl jobset <TAB> in bash" "$want" \
      "$(type_into "bash --noprofile --rcfile $tmp/kubectl-bashrc -i" \
           $'kubectl jobset li\t--fail-on w\t' $'kubectl jobset lint \t')"
  else
    echo "SKIP: script(1) or bash-completion missing (kubectl jobset <TAB> in bash)"
  fi
  if [ "$have_script" = 1 ] && command -v zsh >/dev/null 2>&1; then
    printf 'PS1="%%%% "\nbindkey -e\nautoload -Uz compinit && compinit -u -D\n%s\n' \
      'source <(kubectl completion zsh)' > "$tmp/zdot/.zshrc"
    check "kubectl jobset <TAB> in zsh" "$want" \
      "$(ZDOTDIR=$tmp/zdot type_into "zsh -d -i" $'kubectl jobset li\t--fail-on w\t' \
           $'kubectl jobset lint \t')"
  else
    echo "SKIP: script(1) or zsh missing (kubectl jobset <TAB> in zsh)"
  fi
fi

echo "$pass passed, $fail failed"
[ "$fail" -gt 0 ] && exit 1
[ "$ran" -eq 0 ] && exit 77
exit 0
