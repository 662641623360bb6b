# bash completion for kubectl-jobset                                     -*- shell-script -*-
#
# Use it for this session:  source <(kubectl-jobset completion bash)
# or install it where bash-completion finds it:
#   dir=${XDG_DATA_HOME:-$HOME/.local/share}/bash-completion/completions
#   mkdir -p "$dir" && kubectl-jobset completion bash > "$dir/kubectl-jobset"
#
# The candidates come from `kubectl-jobset __complete WORDS... CURRENT` (Cobra's protocol): one a
# line, optionally a TAB and a description, then a last line ":DIRECTIVE" whose bits are
# 1 error, 2 no space, 4 no file completion, 8 the candidates are file extensions,
# 16 directories only, 32 keep the order.

# Sets __kubectl_jobset_words to the words up to the cursor, the last one being the word under the
# cursor cut at the cursor, with the pieces bash split at the '=' and ':' of COMP_WORDBREAKS glued
# back ("--output" "=" "js" -> "--output=js"), as the program expects them.
__kubectl_jobset_words() {
  local line=${COMP_LINE:0:COMP_POINT} word space i n=-1
  __kubectl_jobset_words=()
  for ((i = 0; i <= COMP_CWORD; i++)); do
    space=${line%%[![:space:]]*}
    line=${line#"$space"}
    word=${COMP_WORDS[i]}
    if ((i == COMP_CWORD)); then
      word=$line
    elif [[ $line != "$word"* ]]; then
      word=${line%%[[:space:]]*}
    fi
    line=${line#"$word"}
    if ((n >= 0)) && [[ -z $space ]]; then
      __kubectl_jobset_words[n]+=$word
    else
      __kubectl_jobset_words[++n]=$word
    fi
  done
}

# Adds to COMPREPLY the folders and the files with one of the extensions "$@" that start with $1.
__kubectl_jobset_files() {
  local cur=$1 f ext
  shift
  compopt -o filenames 2>/dev/null
  while IFS= read -r f; do
    if [[ -d $f ]]; then
      COMPREPLY+=("$f")
      continue
    fi
    for ext in "$@"; do
      if [[ $f == *."$ext" ]]; then
        COMPREPLY+=("$f")
        break
      fi
    done
  done < <(compgen -f -- "$cur")
}

__kubectl_jobset_complete() {
  COMPREPLY=()
  local -a __kubectl_jobset_words
  __kubectl_jobset_words
  local n=${#__kubectl_jobset_words[@]}
  ((n < 2)) && return
  local cur=${__kubectl_jobset_words[n - 1]}
  local prog=${__kubectl_jobset_words[0]}
  [[ $prog == "~"/* ]] && prog=$HOME/${prog#"~/"}

  local out
  out=$("$prog" __completeNoDesc "${__kubectl_jobset_words[@]:1:n-2}" "$cur" 2>/dev/null) || return
  local directive=0 last=${out##*$'\n'}
  if [[ $last == :* ]]; then
    directive=${last#:}
    [[ $out == *$'\n'* ]] && out=${out%$'\n'*} || out=
  fi
  ((directive & 1)) && return

  # Bash replaces only the part of the word after its last '=' or ':' (COMP_WORDBREAKS).
  local breaks="" prefix=""
  [[ $COMP_WORDBREAKS == *=* ]] && breaks+="="
  [[ $COMP_WORDBREAKS == *:* ]] && breaks+=":"
  [[ -n $breaks && $cur == *[$breaks]* ]] && prefix=${cur%"${cur##*[$breaks]}"}

  local -a candidates=()
  local line
  while IFS= read -r line; do
    [[ -n $line ]] && candidates+=("${line%%$'\t'*}")
  done <<<"$out"

  if ((directive & 8)); then
    __kubectl_jobset_files "${cur#"$prefix"}" "${candidates[@]}"
    return
  fi
  if ((directive & 16)); then
    compopt -o filenames 2>/dev/null
    local dir
    while IFS= read -r dir; do COMPREPLY+=("$dir"); done < <(compgen -d -- "${cur#"$prefix"}")
    return
  fi
  ((directive & 2)) && compopt -o nospace 2>/dev/null
  ((directive & 32)) && compopt -o nosort 2>/dev/null

  # For --flag=value the program answers with values: put the flag back before matching.
  local flag=""
  [[ $cur == -*=* ]] && flag=${cur%%=*}=
  local candidate
  for candidate in "${candidates[@]}"; do
    candidate=$flag$candidate
    [[ $candidate == "$cur"* ]] && COMPREPLY+=("${candidate#"$prefix"}")
  done
  if ((${#COMPREPLY[@]} == 0 && !(directive & 4))); then
    compopt -o default 2>/dev/null
  fi
}

complete -F __kubectl_jobset_complete kubectl-jobset
